//! Access requests: wheelchair spaces, companion seats, captioned or
//! audio-described performances.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(72 * 3600);

#[derive(Deserialize)]
pub struct AccessRequest {
    pub performance_id: String,
    pub needs: Vec<String>,
    pub notes: String,
}

pub struct AccessDesk {
    pub batten: Batten,
    pub access: crate::access::Coordinator,
}

pub async fn request_access(cue: Cue, patron: Patron, JsonPart(req): JsonPart<AccessRequest>, desk: House<AccessDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    if key.contains(':') {
        return Ok(Curtain::problem(Problem::invalid_key("the key must not contain ':'")));
    }
    let caller: String = patron.user_id.chars().filter(|c| *c != ':').collect();
    let sk = scoped(&patron.org_id, &caller, "access_request", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("access_request", cue.body());
    let notes = req.notes.replace('|', "/");
    match desk.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let ticket = desk.access.open(&patron.org_id, &req.performance_id, &req.needs, &notes).await?;
            let body = serde_json::to_vec(&ticket).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
