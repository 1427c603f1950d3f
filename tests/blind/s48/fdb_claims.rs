use foundationdb::Database;
use idem_scope::{scoped, Fingerprint, ScopedKey};
use jsonrpsee::core::{async_trait, RpcResult};
use jsonrpsee::proc_macros::rpc;
use jsonrpsee::types::ErrorObjectOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

#[derive(Deserialize)]
pub struct ReindexParams {
    /// Client idempotency key (the `Idempotency-Key` of the originating request).
    pub idempotency_key: String,
    pub tenant_id: String,
    pub principal_id: String,
    pub collection: String,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct Reindexed {
    pub docs: u64,
}

pub struct Records {
    db: Arc<Database>,
}

pub struct Leases {
    db: Arc<Database>,
}

fn e<E: ToString>(x: E) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32000, x.to_string(), None::<()>)
}

impl Records {
    pub async fn try_claim(&self, key: &ScopedKey, fp: &Fingerprint) -> Result<bool, ErrorObjectOwned> {
        let trx = self.db.create_trx().map_err(e)?;
        if trx.get(key.storage_key().as_bytes(), false).await.map_err(e)?.is_some() {
            return Ok(false);
        }
        trx.set(key.storage_key().as_bytes(), fp.as_bytes());
        trx.commit().await.map_err(e)?;
        Ok(true)
    }
    pub async fn complete(&self, key: &ScopedKey, body: &[u8]) -> Result<(), ErrorObjectOwned> {
        let trx = self.db.create_trx().map_err(e)?;
        trx.set(key.storage_key().as_bytes(), body);
        trx.commit().await.map_err(e)?;
        Ok(())
    }
    pub async fn release(&self, key: &ScopedKey) -> Result<(), ErrorObjectOwned> {
        let trx = self.db.create_trx().map_err(e)?;
        trx.clear(key.storage_key().as_bytes());
        trx.commit().await.map_err(e)?;
        Ok(())
    }
}

impl Leases {
    pub async fn acquire(&self, job: &str, ttl: Duration) -> Result<bool, ErrorObjectOwned> {
        let trx = self.db.create_trx().map_err(e)?;
        trx.set(format!("lease/{}", job).as_bytes(), &ttl.as_secs().to_be_bytes());
        trx.commit().await.map_err(e)?;
        Ok(true)
    }
    pub async fn release(&self, job: &str) -> Result<(), ErrorObjectOwned> {
        let trx = self.db.create_trx().map_err(e)?;
        trx.clear(format!("lease/{}", job).as_bytes());
        trx.commit().await.map_err(e)?;
        Ok(())
    }
}

#[rpc(server)]
pub trait Indexer {
    #[method(name = "indexer_reindex")]
    async fn reindex(&self, p: ReindexParams) -> RpcResult<Reindexed>;
    #[method(name = "indexer_compact")]
    async fn compact(&self, collection: String) -> RpcResult<u64>;
}

pub struct IndexerImpl {
    records: Records,
    leases: Leases,
}

async fn count_docs(collection: &str) -> Result<u64, ErrorObjectOwned> {
    if collection.is_empty() {
        return Err(e("empty collection"));
    }
    Ok(collection.len() as u64 * 1000)
}

#[async_trait]
impl IndexerServer for IndexerImpl {
    async fn reindex(&self, p: ReindexParams) -> RpcResult<Reindexed> {
        let key = scoped(&p.tenant_id, &p.principal_id, "indexer.reindex", &p.idempotency_key).map_err(e)?;
        let fp = Fingerprint::of("indexer.reindex", p.collection.as_bytes());
        if !self.records.try_claim(&key, &fp).await? {
            return Err(e("in progress or done"));
        }
        let docs = count_docs(&p.collection).await?;
        let out = Reindexed { docs };
        let body = serde_json::to_vec(&out).unwrap();
        self.records.complete(&key, &body).await?;
        Ok(out)
    }

    async fn compact(&self, collection: String) -> RpcResult<u64> {
        let job = format!("compact:{}", collection);
        if !self.leases.acquire(&job, Duration::from_secs(300)).await? {
            return Ok(0);
        }
        let n = count_docs(&collection).await?;
        self.leases.release(&job).await?;
        Ok(n)
    }
}
