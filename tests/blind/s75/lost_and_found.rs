//! Lost property: anyone can report an item left in the auditorium; signed-in
//! patrons get updates in the app.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::MaybePatron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(14 * 86_400);

#[derive(Deserialize)]
pub struct LostReport {
    pub performance_id: String,
    pub seat: Option<String>,
    pub description: Option<String>,
    pub contact: String,
}

pub struct LostProperty {
    pub batten: Batten,
    pub register: crate::lost::Register,
}

pub async fn report_lost(cue: Cue, MaybePatron(who): MaybePatron, JsonPart(req): JsonPart<LostReport>, house: House<LostProperty>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let org = cue.param("org").ok_or_else(|| Flub::not_found("venue"))?;
    let reporter = if let Some(p) = who.as_ref() {
        p.user_id.clone()
    } else {
        String::from("guest")
    };
    let description = req.description.clone().unwrap_or_else(|| "unknown item".into());
    let sk = scoped(org, &reporter, "report_lost", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("report_lost", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let case = house
                .register
                .open(org, &req.performance_id, req.seat.as_deref(), &description, &req.contact)
                .await?;
            let body = serde_json::to_vec(&case).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
