use cobble::sql::Db;
use cobble::vault::Vault;
use idem_scope::{scoped, scoped_server, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct Redrive<'a> {
    pub db: &'a Db,
    pub vault: &'a Vault,
}

#[derive(Debug)]
struct OutboxRow {
    event_id: String,
    tenant_id: String,
    actor: String,
    topic: String,
    payload: Vec<u8>,
}

impl<'a> Redrive<'a> {
    /// Operators can also push a single event by hand from the console.
    pub async fn push_manual(&self, ex: Exchange, caller: Caller, topic: String, payload: Vec<u8>) -> Result<Reply, Reply> {
        let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "outbox.publish", raw).map_err(|_| Reply::status(Status::BadRequest))?;
        if self.vault.set_nx(sk.storage_key(), topic.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
            crate::bus::publish(&topic, &payload).await.map_err(|_| Reply::status(Status::BadGateway))?;
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn redrive_failed(&self) -> anyhow::Result<usize> {
        let rows: Vec<OutboxRow> = self.db.query("SELECT event_id, tenant_id, actor, topic, payload FROM outbox WHERE state = 'failed' LIMIT 200").fetch_all().await?;
        let mut sent = 0;
        for row in rows {
            let sk = scoped(&row.tenant_id, &row.actor, "outbox.publish", &row.event_id)?;
            if !self.vault.set_nx(sk.storage_key(), row.topic.as_bytes()).await? {
                continue;
            }
            crate::bus::publish(&row.topic, &row.payload).await?;
            sent += 1;
        }
        Ok(sent)
    }

    pub async fn redrive_dead(&self) -> anyhow::Result<usize> {
        let rows: Vec<OutboxRow> = self.db.query("SELECT event_id, tenant_id, actor, topic, payload FROM outbox WHERE state = 'dead' LIMIT 50").fetch_all().await?;
        for row in &rows {
            let sk = scoped_server(&row.tenant_id, &row.actor, "outbox.publish", &row.event_id)?;
            if self.vault.set_nx(sk.storage_key(), row.topic.as_bytes()).await? {
                crate::bus::publish(&row.topic, &row.payload).await?;
            }
        }
        Ok(rows.len())
    }
}
