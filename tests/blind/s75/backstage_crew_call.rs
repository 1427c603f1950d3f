//! Crew calls: stage managers post calls (load-in, fit-up, strike) and crew
//! members accept them from the backstage app.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::callout::Callout;
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(20);
const KEEP: Duration = Duration::from_secs(48 * 3600);

#[derive(Deserialize)]
pub struct Acceptance {
    pub call_id: String,
    pub crew_name: String,
}

pub struct CrewDesk {
    pub batten: Batten,
    pub rota: crate::crew::Rota,
    pub union_portal: String,
}

pub async fn accept_call(cue: Cue, staff: Staff, JsonPart(req): JsonPart<Acceptance>, desk: House<CrewDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let route = cue.route_template().trim_end_matches('/');
    let sk = scoped(&staff.org_id, &staff.user_id, route, key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of(route, cue.body());
    match desk.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let shift = desk.rota.accept(&staff.org_id, &staff.user_id, &req.call_id).await?;
            let body = serde_json::to_vec(&shift).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            notify_union(&desk, &req.crew_name, &req.call_id).await;
            Ok(Curtain::bytes(200, body))
        }
    }
}

async fn notify_union(desk: &CrewDesk, crew_name: &str, call_id: &str) {
    let base = desk.union_portal.trim_end_matches('/');
    let display = crew_name.replace(':', " - ");
    let _ = Callout::post(&format!("{base}/hours"))
        .json(&serde_json::json!({ "member": display, "cue": call_id }))
        .send()
        .await;
}
