use std::time::Duration;

use idem_scope::scoped;
use tokio::time::sleep;

pub struct ExportCall {
    pub headers: Vec<(String, String)>,
    pub project_id: String,
    pub user_id: String,
    pub query: String,
}

pub struct Exporter {
    records: ExportRecords,
    warehouse: Warehouse,
}

impl Exporter {
    pub async fn export(&self, call: ExportCall) -> Result<String, ExportError> {
        let job_ref = call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(ExportError::MissingKey)?;
        let key = scoped(&call.project_id, &call.user_id, "exports.run", &job_ref)?;
        self.records.reserve(&key).await?;
        let url = tokio::select! {
            res = self.warehouse.export(&call.project_id, &call.query) => res?,
            _ = sleep(Duration::from_secs(30)) => {
                return Err(ExportError::Timeout);
            }
        };
        self.records.save_response(&key, &url).await?;
        Ok(url)
    }
}
