use clickhouse::{Client, Row};
use serde::Serialize;

#[derive(Row, Serialize)]
struct AuditRow<'a> {
    ts_ms: i64,
    tenant_id: &'a str,
    route: &'a str,
    request_id: &'a str,
    idempotency_key: Option<&'a str>,
    status: u16,
    replayed: bool,
}

pub struct RequestAudit {
    ch: Client,
}

impl RequestAudit {
    pub fn new(url: &str) -> Self {
        RequestAudit { ch: Client::default().with_url(url).with_database("observability") }
    }

    /// Every request is appended to an analytics table; nothing is ever looked up by key here.
    pub async fn append_request(&self, tenant_id: &str, route: &str, request_id: &str, idempotency_key: Option<&str>, status: u16, replayed: bool) -> clickhouse::error::Result<()> {
        let mut insert = self.ch.insert("request_audit")?;
        insert
            .write(&AuditRow { ts_ms: now_ms(), tenant_id, route, request_id, idempotency_key, status, replayed })
            .await?;
        insert.end().await
    }

    pub async fn replay_ratio(&self, tenant_id: &str) -> clickhouse::error::Result<f64> {
        self.ch
            .query("SELECT avg(replayed) FROM request_audit WHERE tenant_id = ? AND ts_ms > ?")
            .bind(tenant_id)
            .bind(now_ms() - 86_400_000)
            .fetch_one::<f64>()
            .await
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or_default()
}
