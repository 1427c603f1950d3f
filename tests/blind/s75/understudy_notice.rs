//! Understudy notices: stage management announces cast changes; ticket
//! holders get an e-mail. The stage-management tool posts with a key, and
//! the poster is only named when a person (not the tool's scheduler) posts.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::pass::Terminal;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
pub struct CastChange {
    pub performance_id: String,
    pub role: String,
    pub replacement: String,
    pub actor: Option<String>,
    pub note: Option<String>,
}

pub struct Notices {
    pub batten: Batten,
    pub mailer: crate::mail::Notices,
}

pub async fn post_cast_change(cue: Cue, tool: Terminal, house: House<Notices>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let change: CastChange = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let actor = change.actor.clone().unwrap_or_else(|| "anonymous".into());
    let note = change.note.clone().unwrap_or_else(|| "none".into());
    let sk = scoped(&tool.org_id, &actor, "cast_change", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("cast_change", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let sent = house
                .mailer
                .cast_change(&tool.org_id, &change.performance_id, &change.role, &change.replacement, &note)
                .await?;
            let body = serde_json::to_vec(&sent).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(202, body))
        }
    }
}
