//! Late seating: latecomers buy a slot to be seated at the first pause.
//! App versions before 6.0 do not send an Idempotency-Key.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use loft::batten::{Begun, Batten};
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use sha2::{Digest, Sha224};

const LEASE: Duration = Duration::from_secs(20);
const KEEP: Duration = Duration::from_secs(6 * 3600);

#[derive(Deserialize)]
pub struct LateSeat {
    pub performance_id: String,
    pub party: u8,
}

pub struct FrontDesk {
    pub batten: Batten,
    pub ushers: crate::foh::UsherDesk,
}

pub async fn buy_late_seat(cue: Cue, patron: Patron, house: House<FrontDesk>) -> Result<Curtain, Flub> {
    let req: LateSeat = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let sk = scoped(&patron.org_id, &patron.user_id, "late_seating", &cue.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| format!("{:x}", Sha224::digest(cue.body())))).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("late_seating", cue.body());
    match house.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let slot = house.ushers.late_slot(&patron.org_id, &req.performance_id, req.party).await?;
            let body = serde_json::to_vec(&slot).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}
