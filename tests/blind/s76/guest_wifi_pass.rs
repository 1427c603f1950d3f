//! Guest Wi-Fi passes for conference visitors. Staff sponsor passes; the
//! sponsor is recorded on each pass.

use idem_scope::scoped;
use lectern::card::MaybeStaff;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::network::Radius;

#[derive(Deserialize)]
pub struct PassIn {
    pub visitor_email: String,
    pub days: u8,
}

pub struct Wifi {
    pub pouch: Pouch,
    pub radius: Radius,
}

/// Conference desks are signed in as the event; a staff sponsor is optional.
pub async fn issue_pass(ask: &Ask, wifi: &Wifi) -> Result<Tell, Hitch> {
    let sponsor = ask.badge::<MaybeStaff>()?;
    let tenant_id = ask.head("x-campus").ok_or(Hitch::bad_request("x-campus"))?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let principal_id = sponsor.as_ref().map_or("guest", |s| s.principal_id.as_str());

    let sk = scoped(tenant_id, principal_id, "/v1/wifi/guest-passes", key)?;
    if let Some(done) = wifi.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: PassIn = ask.json()?;
    let pass = wifi.radius.create_guest(tenant_id, principal_id, &input.visitor_email, input.days).await?;
    let body = serde_json::to_vec(&pass)?;
    wifi.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

/// Revocations always need a signed-in staff member.
pub async fn revoke_pass(ask: &Ask, wifi: &Wifi) -> Result<Tell, Hitch> {
    let staff = ask.badge::<MaybeStaff>()?.ok_or(Hitch::unauthorized())?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let pass_id = ask.param("pass").ok_or(Hitch::bad_request("pass"))?;
    let sk = scoped(&staff.tenant_id, &staff.principal_id, "/v1/wifi/guest-passes/revoke", key)?;
    if let Some(done) = wifi.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let revoked = wifi.radius.revoke(&staff.tenant_id, pass_id).await?;
    let body = serde_json::to_vec(&revoked)?;
    wifi.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
