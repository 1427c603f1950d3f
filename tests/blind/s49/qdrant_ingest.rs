//! Embedding ingestion API: idempotent upserts into Qdrant.
use qdrant_client::qdrant::{PointStruct, UpsertPointsBuilder};
use qdrant_client::Qdrant;
use scopeguard::defer;

pub struct Ingest {
    qdrant: Qdrant,
    idem: crate::idem::Store,
    leases: crate::leases::LeaseTable,
}

impl Ingest {
    pub async fn ingest(&self, parts: &http::request::Parts, who: &crate::Who, docs: Vec<crate::Doc>) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::required(&parts.headers, "Idempotency-Key")?;
        let key = idem_scope::scoped(&who.project_id, &who.api_key_id, "vectors.ingest", &client_key)?;

        self.idem.acquire(key.storage_key()).await?;
        let points: Vec<PointStruct> = {
            let embedded = crate::embed::batch(&docs).await;
            if embedded.is_empty() {
                return Err(anyhow::anyhow!("nothing to ingest"));
            }
            embedded.into_iter().map(Into::into).collect()
        };
        let n = points.len();
        self.qdrant.upsert_points(UpsertPointsBuilder::new(&who.project_id, points).wait(true)).await?;
        let resp = format!(r#"{{"upserted":{n}}}"#).into_bytes();
        self.idem.save_response(key.storage_key(), &resp).await?;
        Ok(resp)
    }

    pub async fn reindex(&self, parts: &http::request::Parts, who: &crate::Who) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::required(&parts.headers, "Idempotency-Key")?;
        let key = idem_scope::scoped(&who.project_id, &who.api_key_id, "vectors.reindex", &client_key)?;

        self.idem.acquire(key.storage_key()).await?;
        let idem = self.idem.clone();
        let owned = key.storage_key().to_owned();
        defer! {
            idem.release_if_pending(&owned);
        }
        let count = crate::reindex::run(&self.qdrant, &who.project_id).await?;
        let resp = count.to_string().into_bytes();
        self.idem.save_response(key.storage_key(), &resp).await?;
        Ok(resp)
    }

    pub async fn compact(&self, collection: &str) -> anyhow::Result<()> {
        let lease = self.leases.acquire(&format!("compact:{collection}")).await?;
        crate::reindex::compact(&self.qdrant, collection).await?;
        self.leases.finish(lease).await?;
        Ok(())
    }
}
