//! Outbox relay: pledge confirmations are written to an outbox in the same
//! transaction as the pledge; the relay forwards them to the CRM and
//! records the forwarded result in the confirmation cart, which the resend
//! endpoint also uses.

use std::time::Duration;

use crosspoint::badge::Member;
use crosspoint::client::{Client, Request};
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use spool::cart::Cart;
use spool::log::Log;

const RESEND_ROUTE: &str = "/v1/confirmations/resend";

pub struct OutboxRow {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub route: String,
    pub payload: Vec<u8>,
}

pub struct Relay {
    pub log: Log,
    pub confirmations: Cart,
    pub crm: Client,
    pub crm_url: String,
}

impl Relay {
    pub async fn resend(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let key = scoped(&m.tenant_id, &m.user_id, RESEND_ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.confirmations.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let sent = crate::crm::resend_latest(&m.tenant_id, &m.user_id).await?;
        self.confirmations.put(key.storage_key(), &sent).await?;
        Ok(Outbound::status(Status::ACCEPTED))
    }

    pub async fn drain_once(&self) -> Result<usize, Glitch> {
        let rows: Vec<OutboxRow> = self.log.sql("SELECT event_id, tenant_id, user_id, route, payload FROM pledge_outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100").all().await?;
        let mut sent = 0;
        for row in rows {
            let key = scoped(&row.tenant_id, &row.user_id, &row.route, &row.event_id).map_err(Glitch::scope)?;
            if self.confirmations.exists(key.storage_key()).await? {
                continue;
            }
            let request = Request::post(&self.crm_url)
                .header("Idempotency-Key", &row.event_id)
                .timeout(Duration::from_secs(10))
                .body(row.payload.clone());
            let resp = self.crm.send(request).await.map_err(Glitch::upstream)?;
            let body = resp.bytes().await.map_err(Glitch::upstream)?;
            self.confirmations.put(key.storage_key(), &body).await?;
            self.log.sql("UPDATE pledge_outbox SET sent_at = now() WHERE event_id = $1").bind(&row.event_id).exec().await?;
            sent += 1;
        }
        Ok(sent)
    }
}
