//! Outbox relay: fare events committed together with the business write are
//! forwarded to the regional clearing house. Operators can also submit a
//! correction to clearing directly from the console; both paths record what
//! was sent in the same `sent` bay so the clearing view is one list.

use hopper::bay::Bay;
use hopper::rel::{FromRow, Rel};
use idem_scope::{scoped, Problem};
use wharf::badge::Operator;
use wharf::{Answer, Code, Fault, Hail};

use crate::clearing::ClearingClient;

#[derive(FromRow)]
struct OutboxRow {
    event_id: String,
    tenant_id: String,
    user_id: String,
    route: String,
    payload: Vec<u8>,
    attempts: i32,
}

pub struct OutboxRelay {
    rel: Rel,
    sent: Bay,
    clearing: ClearingClient,
}

impl OutboxRelay {
    /// Console: `POST /v1/clearing/submissions`
    pub async fn submit_direct(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&op.org_id, &op.actor, "clearing.submit", k)?;
        if self.sent.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        let ack = self.clearing.submit(&op.org_id, hail.body()).send().await?;
        self.sent.put(key.storage_key(), ack.batch_ref.into_bytes()).await?;
        Ok(Answer::status(Code::Accepted))
    }

    pub async fn drain(&self) -> anyhow::Result<u32> {
        let rows: Vec<OutboxRow> = self
            .rel
            .stmt("SELECT event_id, tenant_id, user_id, route, payload, attempts FROM fare_outbox WHERE sent_at IS NULL ORDER BY id LIMIT 200")
            .fetch_all()
            .await?;
        let mut forwarded = 0;
        for row in rows {
            if row.attempts > 20 {
                tracing::error!(event = %row.event_id, "outbox event parked after 20 attempts");
                continue;
            }
            let key = scoped(&row.tenant_id, &row.user_id, &row.route, &row.event_id)?;
            if self.sent.exists(key.storage_key()).await? {
                self.mark_sent(&row.event_id).await?;
                continue;
            }
            let ack = self
                .clearing
                .submit(&row.tenant_id, &row.payload)
                .header("Idempotency-Key", &row.event_id)
                .send()
                .await?;
            self.sent.put(key.storage_key(), ack.batch_ref.into_bytes()).await?;
            self.mark_sent(&row.event_id).await?;
            forwarded += 1;
        }
        Ok(forwarded)
    }

    async fn mark_sent(&self, event_id: &str) -> anyhow::Result<()> {
        self.rel
            .stmt("UPDATE fare_outbox SET sent_at = now(), attempts = attempts + 1 WHERE event_id = $1")
            .bind(event_id)
            .exec()
            .await?;
        Ok(())
    }
}
