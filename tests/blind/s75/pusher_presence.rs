//! Pusher webhooks for the front-of-house presence channels: ushers join a
//! channel per auditorium; when a channel empties the house is closed.
//! Pusher batches several events into one webhook.
use std::time::Duration;

use idem_scope::scoped_server;
use loft::batten::Batten;
use proscenium::{Curtain, Cue, Flub, House};
use pusher::Pusher;

const LEASE: Duration = Duration::from_secs(30);
const KEEP: Duration = Duration::from_secs(86_400);

pub struct FrontOfHouse {
    pub pusher: Pusher,
    pub batten: Batten,
    pub house_state: crate::foh::HouseState,
}

fn auditorium_of(channel: &str) -> Option<(&str, &str)> {
    channel.strip_prefix("presence-foh-")?.split_once('.')
}

pub async fn pusher_webhook(cue: Cue, foh: House<FrontOfHouse>) -> Result<Curtain, Flub> {
    let key = cue.header("X-Pusher-Key").unwrap_or_default();
    let signature = cue.header("X-Pusher-Signature").unwrap_or_default();
    let body = std::str::from_utf8(cue.body()).map_err(Flub::bad_request)?;
    let hook = foh
        .pusher
        .webhook(key, signature, body)
        .map_err(|_| Flub::unauthorized("bad pusher signature"))?;

    for (n, event) in hook.events.iter().enumerate() {
        let (Some(name), Some(channel)) = (event.get("name"), event.get("channel")) else {
            continue;
        };
        let Some((org_id, auditorium)) = auditorium_of(channel) else {
            continue;
        };
        let event_id = format!("{}-{}", hook.time_ms, n);
        let sk = scoped_server(org_id, "pusher", name, &event_id).map_err(Flub::bad_request)?;
        if !foh.batten.claim(sk.storage_key(), LEASE).await? {
            continue;
        }
        let outcome = match name.as_str() {
            "channel_vacated" => foh.house_state.close(org_id, auditorium).await,
            "channel_occupied" => foh.house_state.open(org_id, auditorium).await,
            _ => continue,
        };
        match outcome {
            Ok(()) => foh.batten.complete(sk.storage_key(), b"ok".to_vec(), KEEP).await?,
            Err(e) => {
                foh.batten.release(sk.storage_key()).await?;
                tracing::warn!(error = %e, channel, "presence event failed");
            }
        }
    }
    Ok(Curtain::new(200))
}
