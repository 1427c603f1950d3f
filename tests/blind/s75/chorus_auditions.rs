//! Community chorus: sign-ups for audition slots. The older app versions
//! prefix their keys with '#'.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(7 * 86_400);

#[derive(Deserialize)]
pub struct AuditionSignup {
    pub slot_no: String,
    pub voice_part: String,
    pub piece: String,
}

pub struct Chorus {
    pub batten: Batten,
    pub panel: crate::chorus::Panel,
}

pub async fn sign_up(cue: Cue, patron: Patron, JsonPart(req): JsonPart<AuditionSignup>, chorus: House<Chorus>) -> Result<Curtain, Flub> {
    let raw = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let key = raw.replacen('#', "", 1);
    let slot_no: u32 = req.slot_no.trim_start_matches('0').parse().unwrap_or(0);
    let part_label = req.voice_part.replace('/', " or ");
    let sk = scoped(&patron.org_id, &patron.user_id, "audition_signup", &key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("audition_signup", cue.body());
    match chorus.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let booked = chorus.panel.book(&patron.org_id, &patron.user_id, slot_no, &part_label, &req.piece).await?;
            let body = serde_json::to_vec(&booked).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
