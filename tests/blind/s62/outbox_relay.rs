use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use quarry::kv::Vault;
use quarry::sql::Pool;
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

pub struct OutboxRow {
    pub seq: i64,
    pub event_id: Option<String>,
    pub tenant_id: String,
    pub actor: String,
    pub route: String,
    pub body: Vec<u8>,
}

pub struct Relay {
    vault: Arc<Vault>,
    db: Arc<Pool>,
    downstream: partner::Api,
}

impl Relay {
    pub async fn publish(&self, ctx: &Ctx, caller: &Caller, RawBody(body): RawBody) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "partner.publish", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let ack = self.downstream.send(&caller.tenant_id, &body).await;
        let _ = self.vault.put(sk.storage_key(), ack.to_bytes()).await;
        Reply::bytes(Status::ACCEPTED, ack.to_bytes())
    }

    pub async fn drain(&self) -> anyhow::Result<()> {
        loop {
            let rows: Vec<OutboxRow> = self.db.acquire().await?.query("SELECT seq, event_id, tenant_id, actor, route, body FROM outbox ORDER BY seq LIMIT 100").fetch_all().await?;
            if rows.is_empty() {
                tokio::time::sleep(Duration::from_secs(2)).await;
                continue;
            }
            for row in rows {
                let key = row.event_id.as_deref().map(|id| scoped(&row.tenant_id, &row.actor, &row.route, id)).transpose()?;
                if let Some(sk) = &key {
                    if self.vault.exists(sk.storage_key()).await? {
                        self.delete_row(row.seq).await?;
                        continue;
                    }
                }
                let ack = self.downstream.send(&row.tenant_id, &row.body).await;
                if let Some(sk) = &key {
                    self.vault.put(sk.storage_key(), ack.to_bytes()).await?;
                }
                self.delete_row(row.seq).await?;
            }
        }
    }

    async fn delete_row(&self, seq: i64) -> anyhow::Result<()> {
        self.db.acquire().await?.query("DELETE FROM outbox WHERE seq = ?").bind(seq).execute().await?;
        Ok(())
    }
}

#[cfg(feature = "fake-outbox")]
pub mod fake {
    use super::*;

    pub async fn seed_seen(vault: &Vault, rows: &[OutboxRow]) {
        for row in rows {
            if let Some(id) = &row.event_id {
                let _ = vault.put(id, b"seen".to_vec()).await;
            }
        }
    }
}
