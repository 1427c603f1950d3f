//! Mux video webhooks for recorded performances, and the patron-facing route
//! that starts a playback session. Both write to the same replay batten.
use std::time::Duration;

use idem_scope::{scoped, scoped_server, Problem};
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::seal::verify_mux;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(3 * 86_400);

#[derive(Deserialize)]
pub struct MuxEvent {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub data: MuxAsset,
}

#[derive(Deserialize)]
pub struct MuxAsset {
    pub id: String,
    pub passthrough: String,
    pub playback_ids: Vec<serde_json::Value>,
}

pub struct Video {
    pub batten: Batten,
    pub vod: crate::vod::Catalogue,
    pub signing_secret: String,
}

/// Patron starts watching; the player retries on network errors.
pub async fn start_playback(cue: Cue, patron: Patron, house: House<Video>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let recording = cue.param("recording").ok_or_else(|| Flub::not_found("recording"))?;
    let sk = scoped(&patron.org_id, &patron.user_id, "start_playback", key).map_err(Flub::bad_request)?;
    if let Some(previous) = house.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let session = house.vod.open_session(&patron.org_id, &patron.user_id, recording).await?;
    house.batten.put(sk.storage_key(), session.to_bytes(), KEEP).await?;
    Ok(Curtain::json(201, &session))
}

/// Mux delivers each event at least once.
pub async fn mux_webhook(cue: Cue, house: House<Video>) -> Result<Curtain, Flub> {
    let signature = cue.header("mux-signature").unwrap_or_default();
    if !verify_mux(&house.signing_secret, signature, cue.body()) {
        return Ok(Curtain::new(401));
    }
    let event: MuxEvent = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let org_id = event.data.passthrough.split_once('/').map(|(org, _)| org.to_owned()).ok_or_else(|| Flub::bad_request("passthrough without org"))?;
    tracing::info!(mux_event = %event.id, kind = %event.kind, "mux webhook");

    match event.kind.as_str() {
        "video.asset.ready" => {
            let sk = scoped(&org_id, "mux", "video.asset.ready", &event.id).map_err(Flub::bad_request)?;
            if house.batten.exists(sk.storage_key()).await? {
                return Ok(Curtain::new(200));
            }
            house.vod.publish(&org_id, &event.data.id, &event.data.playback_ids).await?;
            house.batten.put(sk.storage_key(), b"done".to_vec(), KEEP).await?;
        }
        "video.asset.errored" => {
            let sk = scoped_server(&org_id, "mux", "video.asset.errored", &event.id).map_err(Flub::bad_request)?;
            if house.batten.exists(sk.storage_key()).await? {
                return Ok(Curtain::new(200));
            }
            house.vod.flag_broken(&org_id, &event.data.id).await?;
            house.batten.put(sk.storage_key(), b"done".to_vec(), KEEP).await?;
        }
        _ => {}
    }
    Ok(Curtain::new(200))
}
