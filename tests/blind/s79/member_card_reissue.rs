//! Member cards: reissue a lost membership card (it carries the discount
//! barcode used at partner venues).

use crosspoint::badge::MaybeMember;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::patchbay::PatchBay;

const ROUTE: &str = "/v1/member-cards/reissue";

#[derive(Deserialize)]
pub struct ReissueRequest {
    pub reason: String,
    pub mail_to: Option<String>,
}

pub async fn reissue_card(inb: Inbound, bay: &PatchBay) -> Result<Outbound, Glitch> {
    let maybe = inb.badge::<MaybeMember>();
    let tenant_id = maybe.and_then(|m| m.tenant_id.clone()).unwrap_or_default();
    let user_id = maybe.and_then(|m| m.user_id.clone()).ok_or(Glitch::unauthorized())?;
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    if let Some(prior) = bay.get(&(tenant_id.as_str(), user_id.as_str()), &(ROUTE, k)).await? {
        return Ok(Outbound::replay(prior));
    }
    let req: ReissueRequest = inb.json().await?;
    let card = crate::cards::reissue(&tenant_id, &user_id, &req.reason, req.mail_to.as_deref()).await?;
    bay.put(&(tenant_id.as_str(), user_id.as_str()), &(ROUTE, k), &serde_json::to_vec(&card).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &card))
}
