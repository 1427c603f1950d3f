//! Campus ID card replacement (lost or damaged cards). A replacement fee is
//! charged and the old card is deactivated in the door-access system.

use std::time::Duration;

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::access::DoorSystem;
use crate::bursar::Bursar;

const PENDING: &[u8] = b"{\"state\":\"in_progress\"}";

#[derive(Deserialize)]
pub struct ReplaceIn {
    pub reason: String,
    pub pickup_location: String,
}

pub struct CardOffice {
    pub pouch: Pouch,
    pub doors: DoorSystem,
    pub bursar: Bursar,
}

pub async fn replace_card(ask: &Ask, office: &CardOffice) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/id-cards/replacements", key)?;

    if !office.pouch.set_nx(sk.storage_key(), PENDING, Duration::from_secs(90)).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }

    let fee = {
        let input: ReplaceIn = ask.json().expect("replacement body validated by the portal");
        office.bursar.card_fee(&card.tenant_id, &input.reason)
    };
    office.doors.deactivate(&card.tenant_id, &card.user_id).await?;
    let charge = office.bursar.charge(&card.tenant_id, &card.user_id, fee).await?;
    let body = serde_json::to_vec(&charge)?;
    office.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn report_lost(ask: &Ask, office: &CardOffice) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let sk = scoped(&card.tenant_id, &card.user_id, "/v1/id-cards/lost-reports", key)?;

    if !office.pouch.set_nx(sk.storage_key(), PENDING, Duration::from_secs(90)).await? {
        return Ok(Tell::problem(idem_scope::Problem::in_progress(key)));
    }
    match office.doors.deactivate(&card.tenant_id, &card.user_id).await {
        Ok(done) => {
            let body = done.receipt_json();
            office.pouch.put(sk.storage_key(), &body).await?;
            Ok(Tell::bytes(Mark::ACCEPTED, body))
        }
        Err(e) => {
            office.pouch.release(sk.storage_key()).await?;
            Err(Hitch::upstream(e))
        }
    }
}
