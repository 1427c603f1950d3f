//! Library fine payments. Both the campus and the borrower come from the card,
//! and the slot is only built when both are there.

use lectern::card::MaybeStudent;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::library::Circulation;

#[derive(Deserialize)]
pub struct FinePayment {
    pub fine_ids: Vec<String>,
    pub waive_reason: Option<String>,
}

pub struct Library {
    pub pouch: Pouch,
    pub circ: Circulation,
}

pub async fn pay_fines(ask: &Ask, lib: &Library) -> Result<Tell, Hitch> {
    let maybe = ask.badge::<MaybeStudent>()?;
    let token = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let route = "/v1/library/fines/payments";

    let slot = maybe
        .tenant_id()
        .zip(maybe.user_id())
        .map(|(tenant_id, user_id)| tenant_id.to_owned() + "\u{1e}" + user_id + "\u{1e}" + route + "\u{1e}" + token)
        .ok_or(Hitch::unauthorized())?;

    if let Some(done) = lib.pouch.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }

    let input: FinePayment = ask.json()?;
    let reason = input.waive_reason.as_deref().unwrap_or("none given");
    let banner = String::from("Paid ") + &input.fine_ids.len().to_string() + " fine(s); reason: " + reason;
    let receipt = lib.circ.settle(&input.fine_ids, reason).await?;

    let body = serde_json::to_vec(&serde_json::json!({ "receipt": receipt.id, "banner": banner }))?;
    lib.pouch.put(&slot, &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
