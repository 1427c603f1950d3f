//! Outbox relay: forwards domain events to partner systems (insurers, the
//! pharmacy, the pet registry).

use std::time::Duration;

use bloomfilter::Bloom;
use silage::lease::Leases;
use silage::tab::Tab;
use tokio::sync::Mutex;

use crate::psp_client::OutboundHttp;

pub struct OutboxRelay {
    pub tab: Tab,
    pub leases: Leases,
    pub http: OutboundHttp,
    /// Event ids forwarded recently by this relay process.
    pub recently_sent: Mutex<Bloom<String>>,
}

#[derive(serde::Deserialize)]
pub struct OutboxRow {
    pub event_id: String,
    pub partner_url: String,
    pub payload: serde_json::Value,
}

impl OutboxRelay {
    pub async fn tick(&self) -> Result<usize, crate::relay::RelayError> {
        let Some(lease) = self.leases.acquire("outbox-relay", Duration::from_secs(30)).await? else {
            return Ok(0);
        };
        let rows: Vec<OutboxRow> = self
            .tab
            .q("SELECT event_id, partner_url, payload FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100")
            .fetch_all()
            .await?;
        let mut sent = 0;
        for row in rows {
            {
                let mut seen = self.recently_sent.lock().await;
                if seen.check_and_set(&row.event_id) {
                    continue;
                }
            }
            tracing::debug!(event_id = %row.event_id, url = %row.partner_url, "forwarding");
            self.http
                .post_json(&row.partner_url, &row.payload)
                .header("Idempotency-Key", &row.event_id)
                .send()
                .await?;
            self.tab
                .q("UPDATE outbox SET sent_at = now() WHERE event_id = $1")
                .bind(&row.event_id)
                .exec()
                .await?;
            sent += 1;
        }
        self.leases.release(lease).await?;
        Ok(sent)
    }
}
