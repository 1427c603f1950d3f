//! E-ticket delivery. Guests can ask for a resend; the outbox relay sends
//! the first delivery when an `OrderPaid` row lands in the outbox.

use std::time::Duration;

use driftnet::Publisher;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::{scoped, scoped_server};
use lagoon::sql::{query, Db, Row};
use lagoon::tank::Tank;

use crate::extractors::Caller;

pub struct TicketDelivery {
    sent: Tank,
    db: Db,
    publisher: Publisher,
    mailer: crate::mail::Mailer,
}

struct OutboxRow {
    event_id: uuid::Uuid,
    kind: String,
    org_id: String,
    user_id: String,
    order_id: String,
}

impl TicketDelivery {
    /// `POST /v1/orders/{order}/resend`
    pub async fn resend(&self, visit: Visit, caller: Caller) -> Result<Reply, Fault> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
        let order_id = visit.param("order").ok_or_else(|| Fault::not_found("order"))?;
        let slot = scoped(&caller.org_id, &caller.user_id, "tickets.deliver", key).map_err(Fault::bad_request)?;
        if self.sent.exists(slot.storage_key()).await? {
            return Ok(Reply::empty(Status::ACCEPTED));
        }
        self.mailer.send_tickets(&caller.org_id, order_id).await?;
        self.sent.put(slot.storage_key(), b"sent").await?;
        Ok(Reply::empty(Status::ACCEPTED))
    }

    /// Polls the outbox every few seconds.
    pub async fn relay(&self) -> Result<(), Fault> {
        loop {
            let rows = query("SELECT event_id, kind, org_id, user_id, order_id FROM outbox WHERE relayed_at IS NULL ORDER BY created_at LIMIT 100")
                .fetch_all(&self.db)
                .await?;
            for row in rows.iter().map(OutboxRow::from_row) {
                match row.kind.as_str() {
                    "OrderPaid" => {
                        let slot = scoped(&row.org_id, &row.user_id, "tickets.deliver", &row.event_id.to_string()).map_err(Fault::internal)?;
                        if !self.sent.exists(slot.storage_key()).await? {
                            self.mailer.send_tickets(&row.org_id, &row.order_id).await?;
                            self.sent.put(slot.storage_key(), b"sent").await?;
                        }
                    }
                    "OrderRefunded" => {
                        let slot = scoped_server(&row.org_id, &row.user_id, "tickets.void", &row.event_id.to_string()).map_err(Fault::internal)?;
                        if !self.sent.exists(slot.storage_key()).await? {
                            self.publisher.publish("tickets.void", row.order_id.as_bytes()).await?;
                            self.sent.put(slot.storage_key(), b"voided").await?;
                        }
                    }
                    _ => {}
                }
                query("UPDATE outbox SET relayed_at = now() WHERE event_id = $1").bind(row.event_id).execute(&self.db).await?;
            }
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
    }
}

impl OutboxRow {
    fn from_row(row: &Row) -> Self {
        OutboxRow {
            event_id: row.get("event_id"),
            kind: row.get("kind"),
            org_id: row.get("org_id"),
            user_id: row.get("user_id"),
            order_id: row.get("order_id"),
        }
    }
}
