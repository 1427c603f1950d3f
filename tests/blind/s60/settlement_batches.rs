use std::time::Duration;

use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, Fingerprint, ScopedKey};
use pyxis::book::{Book, Pending};
use pyxis::sql::{Pool, Stmt};
use serde::Deserialize;

use crate::settlement::{SettleError, Settlement};

#[derive(Deserialize)]
pub struct SettleRequest {
    pub batch_id: String,
    pub currency: String,
}

pub struct Settlements {
    pool: Pool,
    book: Book,
}

impl Settlements {
    fn key(ctx: &Ctx, route: &str) -> Result<ScopedKey, SettleError> {
        let auth = ctx.auth();
        let raw = ctx.header("Idempotency-Key").ok_or(SettleError::MissingKey)?;
        Ok(scoped(&auth.tenant_id, &auth.user_id, route, raw.trim())?)
    }

    async fn write_batch(&self, tenant_id: &str, req: &SettleRequest) -> Result<Settlement, SettleError> {
        let mut tx = self.pool.begin().await?;
        let rows = Stmt::new("UPDATE settlement_lines SET state = 'settled' WHERE tenant_id = $1 AND batch_id = $2 AND state = 'pending'")
            .bind(tenant_id)
            .bind(&req.batch_id)
            .execute(&mut tx)
            .await?;
        if rows == 0 {
            return Err(SettleError::NothingToSettle);
        }
        let total: i64 = Stmt::new("SELECT COALESCE(SUM(amount_minor), 0) FROM settlement_lines WHERE tenant_id = $1 AND batch_id = $2")
            .bind(tenant_id)
            .bind(&req.batch_id)
            .fetch_one(&mut tx)
            .await?
            .get(0);
        tx.commit().await?;
        Ok(Settlement { batch_id: req.batch_id.clone(), currency: req.currency.clone(), total_minor: total })
    }

    pub async fn settle(&self, ctx: Ctx, body: bytes::Bytes) -> Result<Reply, SettleError> {
        let key = Self::key(&ctx, "settlements.settle")?;
        let fp = Fingerprint::of("settlements.settle", &body);
        let pending: Pending = match self.book.begin(&key, &fp, Duration::from_secs(120)).await? {
            Some(p) => p,
            None => return Ok(Reply::status(409)),
        };

        let req: SettleRequest = serde_json::from_slice(&body)?;
        let settlement = self.write_batch(&ctx.auth().tenant_id, &req).await?;
        pending.complete(settlement.to_json()).await?;
        Ok(Reply::ok(settlement.to_json()))
    }

    pub async fn reopen(&self, ctx: Ctx, Json(req): Json<SettleRequest>) -> Result<Reply, SettleError> {
        let key = Self::key(&ctx, "settlements.reopen")?;
        self.book.reserve(&key).await?;
        let reopened = self
            .reopen_batch(&ctx.auth().tenant_id, &req.batch_id)
            .await
            .map_err(|e| {
                let book = self.book.clone();
                let key = key.clone();
                tokio::spawn(async move { book.release(&key).await });
                e
            })?;
        self.book.commit(&key, reopened.as_bytes()).await?;
        Ok(Reply::ok(reopened.into_bytes()))
    }

    async fn reopen_batch(&self, tenant_id: &str, batch_id: &str) -> Result<String, SettleError> {
        Stmt::new("UPDATE settlement_lines SET state = 'pending' WHERE tenant_id = $1 AND batch_id = $2")
            .bind(tenant_id)
            .bind(batch_id)
            .execute(&self.pool)
            .await?;
        Ok(format!("{{\"batch_id\":\"{batch_id}\",\"state\":\"pending\"}}"))
    }
}
