//! Grain-bank withdrawals: members who store grain in the co-op's grain
//! bank can withdraw it as feed. The kiosk sends the location code in
//! `X-Location`, e.g. `#west-elevator`.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Withdrawal {
    pub bushels: u32,
    pub ration: String,
    pub memo: String,
}

pub struct GrainBank {
    pub crock: Crock,
    pub ledger: GrainLedger,
}

pub async fn withdraw(p: Petition, Shared(b): Shared<GrainBank>, g: Grower, Json(w): Json<Withdrawal>) -> Ruling {
    let (Some(k), Some(loc)) = (p.header("Idempotency-Key"), p.header("X-Location")) else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    // location-level grain banks are separate tenants of the ledger
    let mut org_id = format!("{}.{}", g.org_id, loc);
    org_id.retain(|c| c != '#');
    let key = match scoped(&org_id, &g.user_id, "grain_bank_withdraw", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = b.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let mut memo = w.memo.clone();
    memo.retain(|c| !c.is_control());
    let slip = b.ledger.withdraw(&org_id, &g.user_id, w.bushels, &w.ration, &memo).await;
    let body = furrow::codec::to_vec(&slip).unwrap_or_default();
    let _ = b.crock.put(key.storage_key(), body.clone()).await;
    Ruling::ok().bytes(body)
}
