use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;

pub const MIGRATION_0009: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_exports (
    scope_version TEXT  NOT NULL,
    tenant_id     TEXT  NOT NULL,
    principal_id  TEXT  NOT NULL,
    route         TEXT  NOT NULL,
    ns            TEXT  NOT NULL,
    idem_key      TEXT  NOT NULL,
    fingerprint   BLOB  NOT NULL,
    response      BLOB,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)"#;

#[derive(Deserialize)]
pub struct ScheduleExport {
    pub dataset: String,
    pub cron: String,
    pub timezone: Option<String>,
}

pub struct Schedules {
    replays: crate::replay_store::AsyncStore,
    scheduler: crate::exports::Scheduler,
}

impl Schedules {
    /// Export schedules belong to the workspace, not to whoever created them.
    pub async fn create(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, raw: &[u8]) -> Result<Vec<u8>, Problem> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, "default", "exports.schedule", key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("exports.schedule", raw);
        if let Some(prev) = self.replays.get(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))? {
            return crate::replay::check(prev, &fp);
        }

        let req: ScheduleExport = serde_json::from_slice(raw).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let tz = req.timezone.clone().unwrap_or_else(|| "UTC".into());
        let schedule = self
            .scheduler
            .create(&caller.tenant_id, &req.dataset, &req.cron, &tz)
            .await
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = serde_json::to_vec(&schedule).unwrap_or_default();
        self.replays
            .put(sk.storage_key(), &crate::replay::encode(&fp, &body), std::time::Duration::from_secs(86_400))
            .await
            .map_err(|_| Problem::in_progress(key))?;
        Ok(body)
    }
}
