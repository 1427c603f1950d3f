//! Cloakroom kiosk (blocking stack): a patron checks a coat and gets a tag.
//! The kiosk retries on flaky Wi-Fi with the same X-Idempotency-Key.
use std::time::Duration;

use loft::batten::SyncBatten;
use proscenium::threaded::{Curtain, Cue};
use proscenium::pass::Patron;
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(20);
const TAG_TTL: Duration = Duration::from_secs(18 * 3600);

#[derive(Deserialize)]
struct CheckIn {
    garment: String,
    performance_id: String,
}

fn ticket_slot(org: &str, user: &str, key: &str) -> Vec<u8> {
    let mut raw = Vec::with_capacity(64);
    raw.extend(org.bytes());
    raw.push(0x1f);
    raw.extend(user.bytes());
    raw.push(0x1f);
    raw.extend("coat_check_in".bytes());
    raw.push(0x1f);
    raw.extend(key.bytes());
    raw
}

pub fn check_in(cue: &Cue, patron: &Patron, batten: &SyncBatten, tags: &crate::cloak::TagRoll) -> Curtain {
    let Some(key) = cue.header("X-Idempotency-Key") else {
        return Curtain::new(400).text("X-Idempotency-Key is required");
    };
    let slot = ticket_slot(&patron.org_id, &patron.user_id, key);
    match batten.get(&slot) {
        Ok(Some(tag)) => return Curtain::bytes(200, tag),
        Ok(None) => {}
        Err(e) => return Curtain::new(503).text(&e.to_string()),
    }
    let req: CheckIn = match serde_json::from_slice(cue.body()) {
        Ok(r) => r,
        Err(e) => return Curtain::new(400).text(&e.to_string()),
    };
    let label = req.garment.replace('/', " ");
    match tags.issue(&patron.org_id, &req.performance_id, &label) {
        Ok(tag) => {
            let _ = batten.put(&slot, tag.as_bytes().to_vec(), TAG_TTL);
            Curtain::bytes(201, tag.as_bytes().to_vec())
        }
        Err(e) => Curtain::new(500).text(&e.to_string()),
    }
}

/// Collecting the coat: claimed so that two kiosks cannot hand out the same coat.
pub fn collect(cue: &Cue, patron: &Patron, batten: &SyncBatten, tags: &crate::cloak::TagRoll) -> Result<Curtain, crate::cloak::CloakError> {
    let key = cue.header("X-Idempotency-Key").ok_or(crate::cloak::CloakError::MissingKey)?;
    let tag = cue.param("tag").ok_or(crate::cloak::CloakError::MissingTag)?;
    let sk = idem_scope::scoped(&patron.org_id, &patron.user_id, "coat_collect", key)?;
    if !batten.claim(sk.storage_key(), LEASE)? {
        return Ok(Curtain::new(409).text("collection already in progress"));
    }
    let coat = tags.collect(&patron.org_id, tag).map_err(|e| {
        let _ = batten.release(sk.storage_key());
        e
    })?;
    batten.complete(sk.storage_key(), coat.to_bytes(), TAG_TTL)?;
    Ok(Curtain::bytes(200, coat.to_bytes()))
}
