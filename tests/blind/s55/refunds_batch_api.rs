use ferrum::kv::SharedKv;
use idem_scope::{scoped, scoped_server, ScopeError};
use keystone::ApiClient;
use relay::http::HeaderMap;

pub struct RefundsApi {
    replay: SharedKv,
    psp: psp::Client,
}

fn key_from(headers: &HeaderMap) -> Option<String> {
    headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(ToOwned::to_owned)
}

impl RefundsApi {
    pub async fn refund(&self, client: &ApiClient, headers: &HeaderMap, payment_id: &str) -> anyhow::Result<Vec<u8>> {
        let key = key_from(headers).ok_or(ScopeError::Missing(idem_scope::Component::Key))?;
        let sk = scoped(&client.merchant_id, "default", "refunds.create", &key)?;
        if let Some(hit) = self.replay.get(sk.storage_key()).await? {
            return Ok(hit);
        }
        let out = self.psp.refund(&client.merchant_id, payment_id).await?;
        self.replay.put(sk.storage_key(), &out).await?;
        Ok(out)
    }

    pub async fn void(&self, client: &ApiClient, headers: &HeaderMap, payment_id: &str) -> anyhow::Result<Vec<u8>> {
        let key = key_from(headers).ok_or(ScopeError::Missing(idem_scope::Component::Key))?;
        let sk = scoped(&client.merchant_id, &client.api_key_id, "", &key)?;
        if let Some(hit) = self.replay.get(sk.storage_key()).await? {
            return Ok(hit);
        }
        let out = self.psp.void(&client.merchant_id, payment_id).await?;
        self.replay.put(sk.storage_key(), &out).await?;
        Ok(out)
    }

    pub async fn capture(&self, client: &ApiClient, headers: &HeaderMap, payment_id: &str) -> anyhow::Result<Vec<u8>> {
        let key = key_from(headers).ok_or(ScopeError::Missing(idem_scope::Component::Key))?;
        let sk = scoped(&client.merchant_id, &client.api_key_id, "payments.capture", &key)?;
        if let Some(hit) = self.replay.get(sk.storage_key()).await? {
            return Ok(hit);
        }
        let out = self.psp.capture(&client.merchant_id, payment_id).await?;
        self.replay.put(sk.storage_key(), &out).await?;
        Ok(out)
    }

    pub async fn settle_cycle(&self, merchant_id: &str, cycle_id: &str) -> anyhow::Result<()> {
        let sk = scoped_server(merchant_id, "settlement-scheduler", "settlements.run", cycle_id)?;
        if self.replay.get(sk.storage_key()).await?.is_some() {
            return Ok(());
        }
        let out = self.psp.settle(merchant_id, cycle_id).await?;
        self.replay.put(sk.storage_key(), &out).await?;
        Ok(())
    }
}
