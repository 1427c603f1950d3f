//! Charge retrier. The public API and this worker share `ChargeIdem`, so a
//! retried attempt is visible to the API and vice versa.
use http::HeaderMap;
use uuid::Uuid;

pub struct ChargeIdem {
    rows: foyer::Cache<String, String>,
}

pub struct Tenant {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct FailedCharge {
    pub tenant_id: String,
    pub user_id: String,
    pub cents: i64,
}

impl ChargeIdem {
    pub async fn api_charge(&self, t: &Tenant, headers: &HeaderMap, cents: i64) -> anyhow::Result<String> {
        let k = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let key = idem_scope::scoped(&t.tenant_id, &t.user_id, "charges.create", k)?;
        if let Some(id) = self.rows.get(key.storage_key()) {
            return Ok(id.value().clone());
        }
        let id = charge(cents).await?;
        self.rows.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }

    #[tracing::instrument(skip(self), fields(tenant = %failed.tenant_id))]
    pub async fn retry_failed(&self, failed: &FailedCharge) -> anyhow::Result<String> {
        let correlation = Uuid::new_v4();
        tracing::info!(%correlation, "retrying charge");
        let key = idem_scope::scoped(&failed.tenant_id, &failed.user_id, "charges.create", &Uuid::new_v4().to_string())?;
        if let Some(id) = self.rows.get(key.storage_key()) {
            return Ok(id.value().clone());
        }
        let id = charge(failed.cents).await?;
        self.rows.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }

    pub async fn retry_failed_v2(&self, failed: &FailedCharge, attempt: Uuid) -> anyhow::Result<String> {
        let key = idem_scope::scoped_server(&failed.tenant_id, &failed.user_id, "charges.retry", &attempt.to_string())?;
        if let Some(id) = self.rows.get(key.storage_key()) {
            return Ok(id.value().clone());
        }
        let id = charge(failed.cents).await?;
        self.rows.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }
}

async fn charge(cents: i64) -> anyhow::Result<String> {
    Ok(format!("ch_{cents}"))
}
