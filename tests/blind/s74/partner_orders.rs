//! Orders from buying-group partners (several practices under one contract).

use idem_scope::Problem;
use serde::Deserialize;
use silage::grid::Grid;
use stirrup::creds::GroupPartner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct PartnerDesk {
    pub grid: Grid,
    pub fulfilment: crate::fulfilment::Fulfilment,
}

#[derive(Deserialize)]
pub struct PartnerOrder {
    pub lines: Vec<(String, u32)>,
    pub po_number: Option<String>,
}

pub async fn submit_order(
    inb: Inbound,
    partner: GroupPartner,
    st: Shared<PartnerDesk>,
    JsonIn(order): JsonIn<PartnerOrder>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    // Group-level integrations are not bound to one member account.
    let org_id: String = match partner.account_id.clone() {
        Some(acct) => acct,
        None => Default::default(),
    };
    let po = match order.po_number.clone() {
        Some(po) => po,
        None => Default::default(),
    };

    if let Some(prev) = st.grid.get(&org_id, &partner.api_key_id, "/v1/partner/orders", k).await? {
        return Ok(Sendback::replay(prev));
    }
    let placed = st.fulfilment.place(&org_id, &order.lines, &po).await?;
    let body = serde_json::to_vec(&placed)?;
    st.grid.put(&org_id, &partner.api_key_id, "/v1/partner/orders", k, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
