//! Replay records in Cosmos DB with a small in-process front cache.
use azure_data_cosmos::prelude::*;
use http::HeaderMap;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
pub struct IdemDoc {
    pub id: String,
    pub account_id: String,
    pub status: u16,
    pub body: String,
}

impl CosmosEntity for IdemDoc {
    type Entity = String;
    fn partition_key(&self) -> Self::Entity {
        self.account_id.clone()
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct DocKey {
    pub account_id: String,
    pub client_key: String,
}

pub struct Replays {
    coll: CollectionClient,
    local: foyer::Cache<DocKey, IdemDoc>,
}

impl Replays {
    pub async fn lookup(
        &self,
        account_id: &str,
        principal_id: &str,
        headers: &HeaderMap,
    ) -> anyhow::Result<Option<IdemDoc>> {
        let client_key = headers
            .get("X-Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let dk = DocKey { account_id: account_id.to_owned(), client_key: client_key.to_owned() };
        if let Some(e) = self.local.get(&dk) {
            return Ok(Some(e.value().clone()));
        }
        let key = idem_scope::scoped(account_id, principal_id, "orders.create", client_key)?;
        let resp = self
            .coll
            .document_client(key.storage_key(), &account_id.to_owned())?
            .get_document::<IdemDoc>()
            .await?;
        match resp {
            GetDocumentResponse::Found(found) => Ok(Some(found.document.document)),
            GetDocumentResponse::NotFound(_) => Ok(None),
        }
    }
}
