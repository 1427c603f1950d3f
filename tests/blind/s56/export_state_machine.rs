use idem_scope::{scoped, ScopedKey};
use marrow::Kv;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportState {
    Queued,
    Rendering,
    Uploading,
    Done,
    Failed,
}

pub struct ExportRun {
    pub tenant_id: String,
    pub user_id: String,
    pub export_id: String,
    pub state: ExportState,
}

pub struct Exporter {
    kv: Kv,
    renderer: crate::render::Renderer,
    uploads: crate::uploads::Uploads,
}

impl Exporter {
    fn scope(run: &ExportRun, headers: &http::HeaderMap) -> anyhow::Result<ScopedKey> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        Ok(scoped(&run.tenant_id, &run.user_id, "exports.run", key)?)
    }

    pub fn advance(&self, run: &mut ExportRun, headers: &http::HeaderMap) -> anyhow::Result<Vec<u8>> {
        let sk = Self::scope(run, headers)?;
        self.kv.mark_in_progress(sk.storage_key().as_bytes())?;
        let artifact = loop {
            run.state = match run.state {
                ExportState::Queued => ExportState::Rendering,
                ExportState::Rendering => {
                    self.renderer.render(&run.tenant_id, &run.export_id).unwrap_or_else(|e| log::warn!("{e}"));
                    ExportState::Uploading
                }
                ExportState::Uploading => break self.uploads.latest(&run.export_id),
                ExportState::Done => break Vec::new(),
                ExportState::Failed => unreachable!("failed exports are never advanced"),
            };
        };
        run.state = ExportState::Done;
        self.kv.mark_done(sk.storage_key().as_bytes(), &artifact)?;
        Ok(artifact)
    }

    pub fn retry_upload(&self, run: &ExportRun, headers: &http::HeaderMap) -> anyhow::Result<Vec<u8>> {
        let sk = Self::scope(run, headers)?;
        let slot = sk.storage_key().as_bytes();
        self.kv.claim(slot)?;
        let artifact = self
            .uploads
            .reupload(&run.tenant_id, &run.export_id)
            .map_err(|e| {
                let _ = self.kv.release(slot);
                e
            })?;
        self.kv.complete(slot, &artifact)?;
        Ok(artifact)
    }
}
