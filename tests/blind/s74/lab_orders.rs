//! Reference-lab orders (send-out panels) placed by clinicians.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::trio::Trio;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct LabDesk {
    /// Order receipts, keyed by three parts.
    pub orders_idem: Trio,
    /// Result documents per (org, order, kind).
    pub results: Trio,
    pub reflab: crate::reflab::Client,
}

#[derive(Deserialize)]
pub struct OrderIn {
    pub pet_id: String,
    pub panel_code: String,
    pub courier_pickup: bool,
}

pub async fn place_order(
    inb: Inbound,
    staff: Staff,
    st: Shared<LabDesk>,
    JsonIn(order): JsonIn<OrderIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/lab/orders", k)?;
    let c = key.columns();
    if let Some(prev) = st.orders_idem.get(c.tenant_id, c.principal_id, key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let placed = st.reflab.place(&staff.org_id, &order.pet_id, &order.panel_code, order.courier_pickup).await?;
    let receipt = serde_json::to_vec(&placed)?;
    st.orders_idem.put(c.tenant_id, c.principal_id, key.storage_key(), receipt.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, receipt))
}

/// `GET /v1/lab/orders/receipt`: the order screen re-reads the receipt of a
/// submission it is unsure about, sending the same key again.
pub async fn order_receipt(inb: Inbound, staff: Staff, st: Shared<LabDesk>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    match st.orders_idem.get(&staff.org_id, &staff.user_id, k).await? {
        Some(receipt) => Ok(Sendback::raw_json(Code::Ok, receipt)),
        None => Ok(Sendback::status(Code::NotFound)),
    }
}

pub async fn result_pdf(staff: Staff, st: Shared<LabDesk>, order_id: String) -> Result<Sendback, Fault> {
    match st.results.get(&staff.org_id, &order_id, "pdf").await? {
        Some(doc) => Ok(Sendback::bytes(Code::Ok, "application/pdf", doc)),
        None => Ok(Sendback::status(Code::NotFound)),
    }
}
