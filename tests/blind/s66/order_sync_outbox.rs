use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopedKey};
use lintel::{Answer, Call, Code};
use skerry::sql::{Link, Row, SqlError};

use crate::orders::{OrderUpdate, Partners};

const FIND: &str = "SELECT response FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6";
const KEEP: &str = "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status, response) VALUES ($1, $2, $3, $4, $5, $6, 'completed', $7) ON CONFLICT DO NOTHING";

/// Order updates reach partners either through the sync API or from our outbox.
pub struct OrderSync {
    link: Arc<Link>,
    partners: Arc<Partners>,
}

impl OrderSync {
    async fn find(&self, slot: &ScopedKey) -> Result<Option<Vec<u8>>, SqlError> {
        let c = slot.columns();
        let row: Option<Row> = self.link.query(FIND).bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).fetch_optional().await?;
        Ok(row.map(|r| r.get("response")))
    }

    async fn keep(&self, slot: &ScopedKey, response: &[u8]) -> Result<(), SqlError> {
        let c = slot.columns();
        self.link.query(KEEP).bind(c.scope_version).bind(c.tenant_id).bind(c.principal_id).bind(c.route).bind(c.ns).bind(c.idem_key).bind(response).execute().await?;
        Ok(())
    }

    pub async fn push_via_api(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "order_sync", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.find(&slot).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(update) = call.json::<OrderUpdate>() else { return Answer::status(Code::BAD_REQUEST) };
        match self.partners.push(&who.tenant_id, &update).await {
            Ok(ack) => {
                let _ = self.keep(&slot, &ack).await;
                Answer::bytes(Code::OK, ack)
            }
            Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        }
    }

    pub async fn relay_outbox(&self, batch: i64) -> Result<usize, SqlError> {
        let rows = self.link.query("SELECT event_id, tenant_id, user_id, payload FROM order_outbox WHERE relayed_at IS NULL ORDER BY created_at LIMIT $1").bind(batch).fetch_all().await?;
        let mut sent = 0;
        for row in rows {
            let event_id: String = row.get("event_id");
            let tenant_id: String = row.get("tenant_id");
            let user_id: String = row.get("user_id");
            let Ok(slot) = scoped(&tenant_id, &user_id, "order_sync", &event_id) else { continue };
            if self.find(&slot).await?.is_none() {
                let update = OrderUpdate::decode(&row.get::<Vec<u8>>("payload"));
                if let Ok(ack) = self.partners.push(&tenant_id, &update).await {
                    self.keep(&slot, &ack).await?;
                }
            }
            self.link.query("UPDATE order_outbox SET relayed_at = now() WHERE event_id = $1").bind(&event_id).execute().await?;
            sent += 1;
        }
        Ok(sent)
    }
}
