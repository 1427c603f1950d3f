//! Caption jobs: producers request captions over HTTP; the scheduler also
//! enqueues caption jobs for every new broadcast, and the worker takes them
//! off the uplink queue. Both paths keep their result in the caption cart.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;
use spool::uplink::{Packet, Uplink};

const ROUTE: &str = "/v1/captions";

#[derive(Deserialize)]
pub struct CaptionJob {
    pub tenant_id: String,
    pub user_id: String,
    pub program_id: String,
    pub languages: Vec<String>,
}

pub struct CaptionDesk {
    pub cart: Cart,
}

impl CaptionDesk {
    pub async fn request(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let key = scoped(&p.org_id, &p.user_id, ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.cart.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let job: CaptionJob = inb.json().await?;
        let ticket = crate::captions::submit(&p.org_id, &job.program_id, &job.languages).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&ticket).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::ACCEPTED, &ticket))
    }

    pub async fn work(&self, uplink: Uplink) {
        while let Some(packet) = uplink.next().await {
            if let Err(e) = self.handle(&packet).await {
                tracing::error!(job = %packet.id(), attempt = packet.attempt(), error = %e, "caption job failed");
                packet.nack().await;
                continue;
            }
            packet.ack().await;
        }
    }

    async fn handle(&self, packet: &Packet) -> Result<(), Glitch> {
        let job: CaptionJob = serde_json::from_slice(packet.body()).map_err(Glitch::bad_request)?;
        let job_id = packet.id();
        let key = scoped(&job.tenant_id, &job.user_id, ROUTE, job_id).map_err(Glitch::scope)?;
        if self.cart.exists(key.storage_key()).await? {
            return Ok(());
        }
        let ticket = crate::captions::submit(&job.tenant_id, &job.program_id, &job.languages).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&ticket).unwrap_or_default()).await?;
        Ok(())
    }
}
