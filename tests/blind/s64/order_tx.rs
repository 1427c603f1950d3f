use std::sync::Arc;

use async_lock::Semaphore;
use bitcoin_hashes::{sha256, Hash};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::sql::Pool;

#[derive(Deserialize)]
pub struct AmendOrder {
    pub order_id: String,
    pub note: String,
}

pub struct Orders {
    pool: Pool,
    writers: Arc<Semaphore>,
}

impl Orders {
    pub async fn amend(&self, caller: Caller, _head: Head, Json(a): Json<AmendOrder>) -> eyre::Result<Reply> {
        let _permit = self.writers.acquire().await;
        let mut conn = self.pool.acquire().await?;
        let tx = conn.begin().await?;
        tx.query("UPDATE orders SET note = $1 WHERE tenant_id = $2 AND id = $3")
            .bind(&a.note)
            .bind(caller.tenant_id())
            .bind(&a.order_id)
            .execute()
            .await?;
        let row: Vec<u8> = tx
            .query("SELECT row_to_json(o)::text FROM orders o WHERE tenant_id = $1 AND id = $2")
            .bind(caller.tenant_id())
            .bind(&a.order_id)
            .fetch_one()
            .await?
            .get(0);
        tx.commit().await?;
        let etag = format!("\"{}\"", sha256::Hash::hash(&row));
        Ok(Reply::bytes(Status::OK, row).header("ETag", &etag))
    }

    pub async fn get(&self, caller: Caller, order_id: &str) -> eyre::Result<Reply> {
        let row: Vec<u8> = self
            .pool
            .query("SELECT row_to_json(o)::text FROM orders o WHERE tenant_id = $1 AND id = $2")
            .bind(caller.tenant_id())
            .bind(order_id)
            .fetch_one()
            .await?
            .get(0);
        Ok(Reply::bytes(Status::OK, row))
    }
}
