//! Handheld barcode scanners at the warehouse dock post pallet receipts.
//! The scanner firmware generates the idempotency key from its own counter
//! and some models prefix it with `#`.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::DeviceCert;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PalletReceipt {
    pub po_number: String,
    pub pallet_tag: String,
    pub cases: u16,
}

pub struct Dock {
    pub crock: Crock,
    pub wms: Warehouse,
}

pub async fn receive_pallet(p: Petition, Shared(d): Shared<Dock>, dev: DeviceCert, Json(r): Json<PalletReceipt>) -> Ruling {
    let Some(raw_key) = p.header("X-Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let scan_key = raw_key.trim_start_matches('#');
    let (Some(org_id), Some(user_id)) = (dev.org_id.as_deref(), dev.assigned_user.as_deref()) else {
        return Ruling::with(StatusLine::FORBIDDEN).text("scanner not enrolled");
    };
    let key = match scoped(org_id, user_id, "pallet_receipt", scan_key) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = d.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let po = r.po_number.trim_start_matches('0');
    let received = d.wms.receive(po, &r.pallet_tag, r.cases).await;
    let body = furrow::codec::to_vec(&received).unwrap_or_default();
    let _ = d.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
