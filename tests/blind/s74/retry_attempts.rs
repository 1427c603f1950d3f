//! Closing a visit (discharge + invoice). Keys are required on the current
//! desk build; older desk builds did not send one.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use uuid::Uuid;

const CLOSE_ROUTE: &str = "/v1/visits/close";

pub struct VisitDesk {
    pub idem: Bunker,
    pub visits: crate::visits::VisitLog,
    pub billing: crate::billing::Invoices,
}

#[derive(Deserialize)]
pub struct CloseIn {
    pub visit_id: String,
    pub discharge_notes: String,
}

pub async fn close_visit(
    inb: Inbound,
    staff: Staff,
    st: Shared<VisitDesk>,
    JsonIn(req): JsonIn<CloseIn>,
) -> Result<Sendback, Fault> {
    let key = match inb.header("Idempotency-Key") {
        Some(k) => scoped(&staff.org_id, &staff.user_id, CLOSE_ROUTE, k)?,
        // Old desk builds: give the attempt its own key so the pipeline below
        // always has one.
        None => scoped(&staff.org_id, &staff.user_id, CLOSE_ROUTE, &Uuid::now_v7().to_string())?,
    };
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let closed = st.visits.close(&staff.org_id, &req.visit_id, &req.discharge_notes).await?;
    let invoice = st.billing.issue_for_visit(&staff.org_id, &closed).await?;
    let invoice_ref = Uuid::now_v7();
    let body = serde_json::to_vec(&serde_json::json!({
        "visit_id": closed.id,
        "invoice_id": invoice.id,
        "reference": invoice_ref.to_string(),
    }))?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body).with_header("X-Request-Ref", invoice_ref.to_string()))
}

/// Re-opening requires a key; no minted fallback.
pub async fn reopen_visit(inb: Inbound, staff: Staff, st: Shared<VisitDesk>, visit_id: String) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/visits/reopen", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    st.visits.reopen(&staff.org_id, &visit_id).await?;
    st.idem.put(key.storage_key(), b"{\"reopened\":true}".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}
