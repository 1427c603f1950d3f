//! Document write service over ArangoDB (arangors), generic over the replay store.
use arangors::document::options::InsertOptions;
use arangors::{Collection, ClientError};

pub trait Store: Send + Sync {
    async fn load(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;
    async fn save(&self, key: &str, value: &[u8]) -> Result<(), StoreError>;
}

#[derive(Debug)]
pub struct StoreError;

pub struct DocService<S: Store, C> {
    store: S,
    docs: Collection<C>,
}

impl<S: Store, C: arangors::client::ClientExt> DocService<S, C> {
    /// Returns the response recorded for an idempotent write, if any.
    pub async fn cached_response(&self, idempotency_key: &str) -> Option<Vec<u8>> {
        self.store.load(idempotency_key).await.ok().flatten()
    }

    pub async fn insert(&self, doc: serde_json::Value) -> Result<String, ClientError> {
        let opts = InsertOptions::builder().return_new(true).overwrite(false).build();
        let resp = self.docs.create_document(doc, opts).await?;
        Ok(resp.header().map(|h| h._key.clone()).unwrap_or_default())
    }

    pub async fn remember_shape(&self, collection: &str, shape: &[u8]) -> Result<(), StoreError> {
        let key = format!("shape:{collection}");
        self.store.save(&key, shape).await
    }
}
