//! Audio-description and hearing-loop headsets reserved for a performance.
//! Some older Android builds pad the key with NUL bytes.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};

const LEASE: Duration = Duration::from_secs(20);
const KEEP: Duration = Duration::from_secs(24 * 3600);

pub struct Headsets {
    pub batten: Batten,
    pub loans: crate::access::HeadsetLoans,
}

pub async fn reserve_headset(cue: Cue, patron: Patron, house: House<Headsets>) -> Result<Curtain, Flub> {
    let raw = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let key = raw.trim_matches('\0');
    let performance = cue.param("performance").ok_or_else(|| Flub::not_found("performance"))?;
    let if_match = cue.header("If-Match").map(|v| v.trim_matches('"').to_owned());
    let sk = scoped(&patron.org_id, &patron.user_id, "reserve_headset", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("reserve_headset", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let loan = house.loans.reserve(&patron.org_id, performance, if_match.as_deref()).await?;
            let body = serde_json::to_vec(&loan).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
