//! Episode desk: producers publish podcast episodes from the console, and a
//! poller picks up episodes that partner shows publish in their own RSS
//! feeds. Both land in the same episode replay cart.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

use crate::shows::Show;

const ROUTE: &str = "/v1/episodes";
const FEED_BOT: &str = "feed-ingest";

#[derive(Deserialize)]
pub struct NewEpisode {
    pub show_id: String,
    pub title: String,
    pub audio_object: String,
}

pub struct EpisodeDesk {
    cart: Cart,
}

impl EpisodeDesk {
    pub async fn publish(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let key = scoped(&p.org_id, &p.user_id, ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.cart.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let ep: NewEpisode = inb.json().await?;
        let published = crate::episodes::publish(&p.org_id, &ep.show_id, &ep.title, &ep.audio_object).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&published).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::CREATED, &published))
    }

    pub async fn ingest_feed(&self, show: &Show, xml: &[u8]) -> Result<usize, Glitch> {
        let channel = rss::Channel::read_from(xml).map_err(Glitch::bad_request)?;
        let mut added = 0;
        for item in channel.items() {
            // Each feed item is one ingest event; its GUID is the event id.
            let Some(feed_event_id) = item.guid().map(|g| g.value()) else { continue };
            let key = scoped(&show.tenant_id, FEED_BOT, ROUTE, feed_event_id).map_err(Glitch::scope)?;
            if self.cart.get(key.storage_key()).await?.is_some() {
                continue;
            }
            let title = item.title().unwrap_or("untitled");
            let audio = item.enclosure().map(|e| e.url()).unwrap_or_default();
            let published = crate::episodes::publish(&show.tenant_id, &show.id, title, audio).await?;
            self.cart.put(key.storage_key(), &serde_json::to_vec(&published).unwrap_or_default()).await?;
            added += 1;
        }
        Ok(added)
    }
}
