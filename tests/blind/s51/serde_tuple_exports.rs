//! Scheduled exports. Keys are serialised tuples so the components stay
//! separable when we read them back for the admin view.
use http::HeaderMap;

pub struct Tenant {
    pub org_id: String,
    pub user_id: String,
}

#[async_trait::async_trait]
pub trait ScheduleStore: Send + Sync {
    async fn get(&self, key: &str) -> anyhow::Result<Option<String>>;
    async fn put(&self, key: &str, schedule_id: &str) -> anyhow::Result<()>;
}

fn header_key(headers: &HeaderMap) -> anyhow::Result<&str> {
    headers
        .get("X-Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))
}

pub async fn schedule(store: &dyn ScheduleStore, t: &Tenant, headers: &HeaderMap, cron: &str) -> anyhow::Result<String> {
    let client_key = header_key(headers)?;
    let k = serde_json::to_string(&(&t.org_id, &t.user_id, "exports.schedule", client_key))?;
    if let Some(id) = store.get(&k).await? {
        return Ok(id);
    }
    let id = format!("sch_{}", cron.len());
    store.put(&k, &id).await?;
    Ok(id)
}

pub async fn pause(store: &dyn ScheduleStore, t: &Tenant, headers: &HeaderMap, schedule_id: &str) -> anyhow::Result<()> {
    let client_key = header_key(headers)?;
    let k = serde_json::to_string(&(&t.org_id, client_key))?;
    if store.get(&k).await?.is_some() {
        return Ok(());
    }
    store.put(&k, schedule_id).await?;
    Ok(())
}
