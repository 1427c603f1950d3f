//! Request line: listeners request songs for the evening show.

use crosspoint::badge::Listener;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use sha2::{Digest, Sha256};
use spool::cart::Cart;

pub async fn request_song(mut inb: Inbound, replays: &Cart) -> Result<Outbound, Glitch> {
    let l = inb.badge::<Listener>().ok_or(Glitch::unauthorized())?.clone();
    let rid = inb.header("X-Request-Id").unwrap_or("-").to_owned();
    let raw = inb.bytes().await?;

    let key = std::str::from_utf8(&raw)
        .map_err(|_| Glitch::bad_request("request text must be UTF-8"))
        .and_then(|text| scoped(&l.tenant_id, &l.user_id, "song-request", &hex::encode(Sha256::digest(text.as_bytes()))).map_err(Glitch::scope))?;

    tracing::info!(request_id = %rid, listener = %l.user_id, "song request received");
    if let Some(prior) = replays.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let queued = crate::request_line::enqueue(&l.tenant_id, &l.user_id, &raw).await?;
    replays.put(key.storage_key(), &serde_json::to_vec(&queued).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &queued))
}
