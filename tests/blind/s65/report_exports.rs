use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use serde::Deserialize;
use tessera::journal::Journal;
use tessera::lease::LeaseTable;

use crate::reports::{ExportSpec, Renderer};

#[derive(Deserialize)]
struct ExportBody {
    report: String,
    from: String,
    to: String,
}

pub struct ExportApi {
    journal: Arc<Journal>,
    leases: Arc<LeaseTable>,
    renderer: Arc<Renderer>,
}

impl ExportApi {
    pub async fn export(&self, ex: &Exchange) -> Outcome {
        let Some(who) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "export_report", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let parse = |raw: &[u8]| -> ExportSpec {
            let body: ExportBody = kestrel::json::from_slice(raw).unwrap();
            ExportSpec::new(&body.report, &body.from, &body.to)
        };

        if self.journal.mark_in_progress(key.storage_key()).await.is_err() {
            return Outcome::status(Status::CONFLICT);
        }
        let spec = parse(ex.body());
        let file = self.renderer.render(&who.tenant_id, &spec).await;
        let _ = self.journal.mark_completed(key.storage_key(), file.url.as_bytes()).await;
        Outcome::text(Status::CREATED, file.url)
    }

    /// Nightly rebuild of the shared export templates; one node at a time.
    pub async fn rebuild_templates(&self, node: &str) -> Result<(), String> {
        let lease = self.leases.acquire("export-templates", node, Duration::from_secs(600)).await.map_err(|e| e.to_string())?;
        let templates = self.renderer.load_templates().await.map_err(|e| e.to_string())?;
        self.renderer.compile(&templates).await.map_err(|e| e.to_string())?;
        self.leases.commit(&lease).await.map_err(|e| e.to_string())
    }
}
