//! Internal transfers. A prepared transfer carries a content id computed once
//! when the request is accepted.
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use openssl::sha::Sha256;
use serde::{Deserialize, Serialize};
use stretto::AsyncCache;

#[derive(Deserialize, Serialize)]
pub struct TransferRequest {
    pub from: String,
    pub to: String,
    pub cents: i64,
    pub memo: Option<String>,
}

pub struct PreparedTransfer {
    pub req: TransferRequest,
    pub content_id: String,
}

impl PreparedTransfer {
    pub fn new(req: TransferRequest) -> anyhow::Result<Self> {
        let mut h = Sha256::new();
        h.update(&serde_json::to_vec(&req)?);
        let content_id = URL_SAFE_NO_PAD.encode(h.finish());
        Ok(Self { req, content_id })
    }
}

type DedupKey = (String, String, &'static str, String);

pub struct Transfers {
    dedup: AsyncCache<DedupKey, String>,
}

impl Transfers {
    pub async fn submit(&self, org_id: &str, caller_id: &str, req: TransferRequest) -> anyhow::Result<(String, String)> {
        let prepared = PreparedTransfer::new(req)?;
        let dedup_key = (org_id.to_owned(), caller_id.to_owned(), "transfers.submit", prepared.content_id.clone());
        if let Some(hit) = self.dedup.get(&dedup_key).await {
            return Ok((hit.value().clone(), String::new()));
        }
        let id = book(&prepared.req).await?;
        let etag = hex::encode(openssl::sha::sha256(id.as_bytes()));
        self.dedup.insert(dedup_key, id.clone(), 1).await;
        Ok((id, etag))
    }
}

async fn book(_req: &TransferRequest) -> anyhow::Result<String> {
    Ok(String::from("tr_1"))
}
