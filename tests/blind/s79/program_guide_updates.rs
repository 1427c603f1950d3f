//! Programme guide: producers push schedule changes to the electronic
//! programme guide that feeds set-top boxes and the website.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use spool::cart::Cart;

/// Anything that can describe itself by a stable digest.
pub trait Digestible: Serialize {
    fn digest_hex(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("guide updates serialise");
        hex::encode(Sha256::digest(&bytes))
    }
}

#[derive(Deserialize, Serialize)]
pub struct GuideUpdate {
    pub channel: String,
    pub slot_start: String,
    pub program_id: String,
    pub title: String,
    pub rating: Option<String>,
}

impl Digestible for GuideUpdate {}

pub async fn push_guide(inb: Inbound, replay_cart: &Cart) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let update: GuideUpdate = inb.json().await?;

    let key = scoped(&p.org_id, &p.user_id, "/v1/guide/updates", &update.digest_hex()).map_err(Glitch::scope)?;
    let partition = Sha256::digest(key.storage_key().as_bytes())[0] % 8;
    let replay_shard = replay_cart.partition(partition);
    if let Some(prior) = replay_shard.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }

    let revision = crate::epg::apply(&p.org_id, &update).await?;
    replay_shard.put(key.storage_key(), &serde_json::to_vec(&revision).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &revision))
}
