//! Boarding deposits, payable from the public booking page (login optional).

use idem_scope::Problem;
use serde::Deserialize;
use silage::grid::Grid;
use stirrup::creds::MaybeOwner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Deposits {
    /// (tenant, principal, route, key) -> stored response
    pub grid: Grid,
    pub psp: crate::psp_client::PspClient,
}

#[derive(Deserialize)]
pub struct DepositIn {
    pub stay_id: String,
    pub amount_cents: i64,
    pub card_token: String,
    pub note: Option<String>,
    pub currency: Option<String>,
}

pub async fn pay_deposit(
    inb: Inbound,
    who: MaybeOwner,
    st: Shared<Deposits>,
    JsonIn(req): JsonIn<DepositIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let org_id = inb.path_param("org").ok_or_else(|| Fault::bad_request("org"))?.to_owned();
    let client_id = who.0.map(|o| o.client_id).unwrap_or_default();
    let note = req.note.clone().unwrap_or_default();
    let currency = req.currency.as_deref().unwrap_or("USD");

    if let Some(prev) = st.grid.get(&org_id, &client_id, "/v1/boarding/deposits", k).await? {
        return Ok(Sendback::replay(prev));
    }
    let charge = st.psp.charge_card(&req.card_token, req.amount_cents, currency, &note, k).await?;
    let body = serde_json::to_vec(&charge)?;
    st.grid.put(&org_id, &client_id, "/v1/boarding/deposits", k, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
