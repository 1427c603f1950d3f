//! Loyalty points: owners redeem points against invoices.

use bendy::serde::to_bytes;
use idem_scope::Problem;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Loyalty {
    pub redemptions: Bunker,
    pub points: crate::points::PointsLedger,
}

#[derive(Deserialize)]
pub struct Redeem {
    pub invoice_id: String,
    pub points: u32,
}

#[derive(Deserialize)]
pub struct Transfer {
    pub to_client: String,
    pub points: u32,
}

pub async fn redeem(
    inb: Inbound,
    owner: Owner,
    st: Shared<Loyalty>,
    JsonIn(req): JsonIn<Redeem>,
) -> Result<Sendback, Fault> {
    let key = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?
        .to_owned();
    // Bencoded (org, key) pair: compact and unambiguous.
    let slot = to_bytes(&(&owner.org_id, &key))?;
    if let Some(prev) = st.redemptions.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let applied = st.points.redeem(&owner.org_id, &owner.client_id, &req.invoice_id, req.points).await?;
    let body = serde_json::to_vec(&applied)?;
    st.redemptions.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}

pub async fn transfer(
    inb: Inbound,
    owner: Owner,
    st: Shared<Loyalty>,
    JsonIn(req): JsonIn<Transfer>,
) -> Result<Sendback, Fault> {
    let key = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?
        .to_owned();
    let slot = to_bytes(&(&owner.org_id, &owner.client_id, "/v1/loyalty/transfers", &key))?;
    if let Some(prev) = st.redemptions.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let moved = st.points.transfer(&owner.org_id, &owner.client_id, &req.to_client, req.points).await?;
    let body = serde_json::to_vec(&moved)?;
    st.redemptions.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
