//! Podcast sponsorships: underwriters renew host-read campaigns on the
//! network's podcasts.

use crosspoint::badge::Underwriter;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::{Deserialize, Serialize};
use spool::cart::Cart;
use uuid::Uuid;

#[derive(Deserialize)]
pub struct Campaign {
    pub show_id: String,
    pub episodes: u16,
    pub read_script: String,
}

#[derive(Serialize)]
pub struct Booking {
    pub id: Uuid,
    pub show_id: String,
    pub episodes: u16,
}

pub struct Sponsorships {
    pub cart: Cart,
    pub orders: Cart,
}

impl Sponsorships {
    pub async fn renew(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let uw = inb.badge::<Underwriter>().ok_or(Glitch::unauthorized())?.clone();
        let hdr: Option<String> = inb.header("Idempotency-Key").map(String::from);

        let slot = match hdr.as_deref() {
            Some(k) => self.cart.entry(k).await?,
            None => return Err(Glitch::missing_key()),
        };
        if let Some(prior) = slot.value() {
            return Ok(Outbound::replay(prior.clone()));
        }

        let campaign: Campaign = inb.json().await?;
        let booking = Booking {
            id: Uuid::new_v4(),
            show_id: campaign.show_id.clone(),
            episodes: campaign.episodes,
        };
        crate::ads::schedule_reads(&uw.account_id, &campaign.show_id, campaign.episodes, &campaign.read_script).await?;
        self.orders.put(&booking.id.to_string(), &serde_json::to_vec(&booking).unwrap_or_default()).await?;
        slot.fill(&serde_json::to_vec(&booking).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::CREATED, &booking))
    }
}
