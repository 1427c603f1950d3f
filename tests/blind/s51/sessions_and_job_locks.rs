//! Admin console: session cache, cached report summaries and the nightly
//! rollup lock.
use std::time::Duration;

use cached::proc_macro::cached;
use http::HeaderMap;
use stretto::AsyncCache;

#[derive(Clone)]
pub struct Session {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Sessions {
    by_token: AsyncCache<String, Session>,
}

impl Sessions {
    pub async fn login(&self, tenant_id: &str, user_id: &str) -> String {
        let token = uuid::Uuid::new_v4().simple().to_string();
        let session = Session { tenant_id: tenant_id.to_owned(), user_id: user_id.to_owned() };
        self.by_token.insert(token.clone(), session, 1).await;
        token
    }

    pub async fn resolve(&self, headers: &HeaderMap) -> Option<Session> {
        let token = headers.get("x-session-token")?.to_str().ok()?;
        self.by_token.get(token).await.map(|v| v.value().clone())
    }
}

#[cached(time = 300, key = "String", convert = r#"{ format!("{}:{}", tenant_id, report) }"#, result = true)]
pub async fn report_summary(tenant_id: &str, report: &str) -> anyhow::Result<String> {
    Ok(format!("summary of {report} for {tenant_id}"))
}

#[async_trait::async_trait]
pub trait JobLocks: Send + Sync {
    async fn acquire(&self, name: &str, ttl: Duration) -> anyhow::Result<bool>;
    async fn complete(&self, name: &str) -> anyhow::Result<()>;
}

pub async fn nightly_rollup(locks: &dyn JobLocks, tenant_id: &str) -> anyhow::Result<()> {
    let lock_name = format!("jobs/rollup/{tenant_id}");
    if !locks.acquire(&lock_name, Duration::from_secs(900)).await? {
        return Ok(());
    }
    rollup(tenant_id).await?;
    locks.complete(&lock_name).await?;
    Ok(())
}

async fn rollup(_tenant_id: &str) -> anyhow::Result<()> {
    Ok(())
}
