//! Partner gateway: thin proxy that records partner calls so a retried call
//! returns the first response.
use http::HeaderMap;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS partner_idempotency (
    tenant_id   TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    endpoint    TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    BYTEA NOT NULL,
    PRIMARY KEY (tenant_id, user_id, endpoint, idem_key)
)";

pub struct PartnerAuth {
    pub tenant_id: String,
    pub user_id: String,
}

#[async_trait::async_trait]
pub trait Responses: Send + Sync {
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
    async fn put(&self, key: &str, body: &[u8]) -> anyhow::Result<()>;
}

pub async fn proxy(
    store: &dyn Responses,
    auth: &PartnerAuth,
    headers: &HeaderMap,
    endpoint: &str,
    body: Vec<u8>,
) -> anyhow::Result<Vec<u8>> {
    let idem = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
    let key = auth.tenant_id.clone() + "/" + &auth.user_id + "/" + endpoint + "/" + idem;
    if let Some(prev) = store.get(&key).await? {
        return Ok(prev);
    }
    let upstream = String::from("https://partner.example.com") + endpoint;
    let resp = forward(&upstream, body).await?;
    store.put(&key, &resp).await?;
    Ok(resp)
}

async fn forward(_url: &str, body: Vec<u8>) -> anyhow::Result<Vec<u8>> {
    Ok(body)
}
