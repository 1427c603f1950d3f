use std::sync::Arc;
use std::time::Duration;

use cistern::sql::{Conn, Row};
use cistern::vat::Vat;
use idem_scope::{scoped, Problem, ScopedKey};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub struct Payouts {
    db: Arc<Conn>,
    vat: Arc<Vat>,
    bank: Arc<bank::Client>,
}

struct PendingPayout {
    event_id: i64,
    tenant_id: String,
    user_id: String,
    payload: Vec<u8>,
}

impl From<Row> for PendingPayout {
    fn from(r: Row) -> Self {
        Self { event_id: r.get("event_id"), tenant_id: r.get("tenant_id"), user_id: r.get("user_id"), payload: r.get("payload") }
    }
}

impl Payouts {
    async fn execute(&self, sk: &ScopedKey, tenant_id: &str, payload: &[u8]) -> Result<Vec<u8>, bank::Error> {
        if let Some(done) = self.vat.get(sk.storage_key()).await.ok().flatten() {
            return Ok(done);
        }
        let receipt = self.bank.payout(tenant_id, payload).await?;
        let _ = self.vat.put(sk.storage_key(), receipt.to_json()).await;
        Ok(receipt.to_json())
    }

    pub async fn create_payout(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "create_payout", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = self.execute(&sk, &caller.tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        Ok(Reply::bytes(Status::CREATED, body))
    }

    /// Re-drives payouts written to the outbox by the scheduler when the bank was down.
    pub async fn redrive_outbox(&self) -> Result<usize, cistern::Error> {
        let rows: Vec<PendingPayout> = self
            .db
            .query("SELECT event_id, tenant_id, user_id, payload FROM payout_outbox WHERE sent_at IS NULL ORDER BY event_id LIMIT 100")
            .fetch_all()
            .await?
            .into_iter()
            .map(PendingPayout::from)
            .collect();
        let mut sent = 0;
        for row in rows {
            let event_key = row.event_id.to_string();
            let Ok(sk) = scoped(&row.tenant_id, &row.user_id, "create_payout", &event_key) else {
                continue;
            };
            if self.execute(&sk, &row.tenant_id, &row.payload).await.is_ok() {
                self.db.query("UPDATE payout_outbox SET sent_at = now() WHERE event_id = $1").bind(row.event_id).execute().await?;
                sent += 1;
            } else {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
        Ok(sent)
    }
}
