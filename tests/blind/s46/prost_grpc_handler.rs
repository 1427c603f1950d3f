use prost::Message;
use std::collections::BTreeMap;
use tokio::sync::RwLock;

#[derive(Clone, PartialEq, Message)]
pub struct CreateInvoiceRequest {
    #[prost(string, tag = "1")]
    pub workspace_id: String,
    /// The client's idempotency key (same semantics as the Idempotency-Key header).
    #[prost(string, tag = "2")]
    pub request_token: String,
    #[prost(int64, tag = "3")]
    pub amount: i64,
}

pub struct InvoiceHandler {
    replay: RwLock<BTreeMap<String, Vec<u8>>>,
}

pub struct Metadata {
    pub pairs: Vec<(String, String)>,
}

impl Metadata {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

impl InvoiceHandler {
    pub async fn create(&self, md: &Metadata, raw: &[u8]) -> Result<Vec<u8>, String> {
        let req = CreateInvoiceRequest::decode(raw).map_err(|e| e.to_string())?;
        let caller = md.get("x-caller-id").ok_or("unauthenticated")?;
        let key = [req.workspace_id.as_str(), caller, "create_invoice", req.request_token.as_str()].join("\u{0}");
        if let Some(hit) = self.replay.read().await.get(&key) {
            return Ok(hit.clone());
        }
        let out = req.encode_to_vec();
        self.replay.write().await.insert(key, out.clone());
        Ok(out)
    }

    pub async fn void(&self, md: &Metadata, raw: &[u8]) -> Result<(), String> {
        let req = CreateInvoiceRequest::decode(raw).map_err(|e| e.to_string())?;
        let token = md.get("idempotency-key").ok_or("missing key")?;
        let mut replay = self.replay.write().await;
        replay.insert(token.to_owned(), raw.to_vec());
        let _ = req;
        Ok(())
    }
}
