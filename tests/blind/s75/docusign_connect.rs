//! Artist and promoter contracts are signed through DocuSign. Promoters
//! countersign through our API; DocuSign Connect tells us when an envelope
//! is complete. Both outcomes are remembered in one replay map.
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Mutex;

use proscenium::pass::Promoter;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

#[derive(Hash, PartialEq, Eq)]
struct ReplayKey {
    org_id: String,
    user_id: String,
    route: &'static str,
    key: String,
}

#[derive(Deserialize)]
pub struct ConnectEvent {
    #[serde(rename = "eventId")]
    pub event_id: String,
    pub event: String,
    pub data: ConnectData,
}

#[derive(Deserialize)]
pub struct ConnectData {
    #[serde(rename = "envelopeId")]
    pub envelope_id: String,
    #[serde(rename = "userId")]
    pub sender_user_id: String,
}

pub struct Contracts {
    seen: Mutex<HashMap<ReplayKey, Vec<u8>>>,
    pub envelopes: crate::contracts::Envelopes,
}

pub async fn countersign(cue: Cue, promoter: Promoter, house: House<Contracts>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    let envelope = cue.param("envelope").ok_or_else(|| Flub::not_found("envelope"))?;
    let signed = house.envelopes.countersign(&promoter.account_id, envelope).await?;
    let mut seen = house.seen.lock().unwrap();
    let body = seen
        .entry(ReplayKey { org_id: promoter.account_id.clone(), user_id: promoter.client_id.clone(), route: "countersign", key: key.to_owned() })
        .or_insert_with(|| signed.to_bytes())
        .clone();
    Ok(Curtain::bytes(200, body))
}

pub async fn connect_webhook(cue: Cue, house: House<Contracts>) -> Result<Curtain, Flub> {
    if !house.envelopes.verify_hmac(cue.header("X-DocuSign-Signature-1"), cue.body()) {
        return Ok(Curtain::new(401));
    }
    let event: ConnectEvent = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    if event.event != "envelope-completed" {
        return Ok(Curtain::new(200));
    }
    let org_id = house.envelopes.org_of(&event.data.envelope_id).await?;
    let first = {
        let mut seen = house.seen.lock().unwrap();
        match seen.entry(ReplayKey { org_id: org_id.clone(), user_id: event.data.sender_user_id.clone(), route: "envelope_completed", key: event.event_id.clone() }) {
            Entry::Occupied(_) => false,
            Entry::Vacant(slot) => {
                slot.insert(Vec::new());
                true
            }
        }
    };
    if first {
        house.envelopes.file_signed_copy(&org_id, &event.data.envelope_id).await?;
    }
    Ok(Curtain::new(200))
}
