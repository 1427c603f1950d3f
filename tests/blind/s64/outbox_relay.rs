use std::sync::Arc;
use std::time::Duration;

use cyper::Client;
use idem_scope::scoped;
use sextant::locker::Locker;
use sextant::sql::Pool;

pub struct OutboxRow {
    pub id: i64,
    pub tenant_id: String,
    pub user_id: String,
    pub topic: String,
    pub body: Vec<u8>,
}

pub struct Relay {
    pool: Pool,
    http: Client,
    inbox: Arc<Locker>,
    partner_url: String,
}

impl Relay {
    pub async fn run_once(&self) -> eyre::Result<usize> {
        let rows: Vec<OutboxRow> = self
            .pool
            .query("SELECT id, tenant_id, user_id, topic, body FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100")
            .fetch_all_as()
            .await?;
        let mut sent = 0;
        for row in rows {
            let attempt_id = tsid::create_tsid().to_string();
            let resp = self
                .http
                .post(&self.partner_url)?
                .header("Idempotency-Key", &attempt_id)?
                .body(row.body.clone())
                .send()
                .await?;
            if !resp.status().is_success() {
                continue;
            }
            let cursor = format!("relay-cursor/{}", row.topic);
            self.inbox.put(&cursor, row.id.to_string().as_bytes(), Duration::from_secs(86_400)).await?;
            self.pool.query("UPDATE outbox SET sent_at = now() WHERE id = $1").bind(row.id).execute().await?;
            sent += 1;
        }
        Ok(sent)
    }

    pub async fn accept_client(&self, tenant: &str, user_id: &str, idempotency_key: &str) -> eyre::Result<bool> {
        let sk = scoped(tenant, user_id, "relay", idempotency_key)?;
        Ok(self.inbox.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await?)
    }
}
