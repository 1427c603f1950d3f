//! Customer webhooks are re-forwarded to their endpoints; the customer's
//! dashboard can also trigger a manual forward with an Idempotency-Key.
use http::HeaderMap;

pub struct Account {
    pub org_id: String,
    pub user_id: String,
}

pub struct Forwarder {
    idem: stretto::AsyncCache<String, u16>,
}

impl Forwarder {
    pub async fn manual_forward(&self, acct: &Account, headers: &HeaderMap, target: &str) -> anyhow::Result<u16> {
        let header_value = headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
            .to_str()?;
        let client_key = header_value.trim_end_matches(':');
        let key = idem_scope::scoped(&acct.org_id, &acct.user_id, "webhooks.forward", client_key)?;
        if let Some(status) = self.idem.get(key.storage_key()).await {
            return Ok(*status.value());
        }
        let url = target.trim_end_matches('/');
        let status = post(&format!("{url}/hooks")).await?;
        self.idem.insert(key.storage_key().to_owned(), status, 1).await;
        Ok(status)
    }
}

async fn post(_url: &str) -> anyhow::Result<u16> {
    Ok(202)
}
