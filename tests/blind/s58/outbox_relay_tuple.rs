use std::sync::Arc;
use std::time::Duration;

use cairn::sql::{query, Pool, Row};
use cairn::tuple_kv::TupleKv;

pub struct OutboxRelay {
    pool: Pool,
    replies: Arc<TupleKv>,
}

pub struct ApiWrite<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub body: &'a [u8],
}

impl OutboxRelay {
    pub async fn record_api_write(&self, headers: &http::HeaderMap, w: ApiWrite<'_>) -> anyhow::Result<()> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        self.replies.put(&(w.tenant_id, w.user_id, w.route, client_key), w.body).await?;
        Ok(())
    }

    pub async fn relay_once(&self) -> anyhow::Result<usize> {
        let rows: Vec<Row> = query("SELECT event_id, tenant_id, actor, route, payload FROM outbox WHERE relayed_at IS NULL ORDER BY id LIMIT 100")
            .fetch_all(&self.pool)
            .await?;
        let mut relayed = 0;
        for row in rows {
            let event_id: String = row.get("event_id");
            let tenant_id: String = row.get("tenant_id");
            let actor: String = row.get("actor");
            let route: String = row.get("route");
            let payload: Vec<u8> = row.get("payload");
            self.replies.put(&(tenant_id.as_str(), actor.as_str(), route.as_str(), event_id.as_str()), &payload).await?;
            query("UPDATE outbox SET relayed_at = now() WHERE event_id = $1")
                .bind(&event_id)
                .execute(&self.pool)
                .await?;
            relayed += 1;
        }
        Ok(relayed)
    }

    pub async fn run(&self) {
        loop {
            match self.relay_once().await {
                Ok(0) => tokio::time::sleep(Duration::from_millis(500)).await,
                Ok(n) => tracing::debug!(n, "relayed outbox rows"),
                Err(e) => tracing::warn!(error = %e, "outbox relay failed"),
            }
        }
    }
}
