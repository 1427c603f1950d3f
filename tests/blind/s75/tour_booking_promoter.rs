//! Touring promoters hold and confirm dates at our venues through the
//! promoter API. Storage is a two-part batten: (scope, key).
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{TwinBatten, TwinBegun};
use proscenium::draw::JsonPart;
use proscenium::pass::Promoter;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(60);
const KEEP: Duration = Duration::from_secs(3 * 86_400);

#[derive(Deserialize)]
pub struct DateHold {
    pub venue_id: String,
    pub dates: Vec<String>,
    pub production: String,
}

pub struct TourDesk {
    pub pair: TwinBatten,
    pub diary: crate::venues::Diary,
}

pub async fn hold_dates(cue: Cue, promoter: Promoter, JsonPart(req): JsonPart<DateHold>, desk: House<TourDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let fp = Fingerprint::of("hold_dates", cue.body());
    match desk.pair.begin(&promoter.account_id, key, &fp, LEASE).await? {
        TwinBegun::Taken(previous) => Ok(Curtain::replay(previous)),
        TwinBegun::Fresh(held) => {
            let hold = desk.diary.pencil(&promoter.account_id, &req.venue_id, &req.dates, &req.production).await?;
            let body = serde_json::to_vec(&hold).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}

pub async fn confirm_dates(cue: Cue, promoter: Promoter, desk: House<TourDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let hold_id = cue.param("hold_id").ok_or_else(|| Flub::not_found("hold"))?;
    let sk = scoped(&promoter.account_id, &promoter.client_id, "confirm_dates", key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("confirm_dates", cue.body());
    match desk.pair.begin(&promoter.account_id, sk.storage_key(), &fp, LEASE).await? {
        TwinBegun::Taken(previous) => Ok(Curtain::replay(previous)),
        TwinBegun::Fresh(held) => {
            let contract = desk.diary.confirm(&promoter.account_id, hold_id).await?;
            let body = serde_json::to_vec(&contract).map_err(Flub::internal)?;
            held.complete(body.clone(), KEEP).await?;
            Ok(Curtain::bytes(200, body))
        }
    }
}
