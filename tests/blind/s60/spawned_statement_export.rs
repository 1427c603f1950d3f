use std::sync::Arc;
use std::time::Duration;

use gimbal::{Ctx, Reply};
use idem_scope::{scoped, Fingerprint, ScopedKey};
use pyxis::kv::{Claimed, Shelf, StoredResponse};
use thiserror::Error;
use tokio::task::JoinHandle;

use crate::statements::{render_pdf, Period, StatementStore};

const LEASE: Duration = Duration::from_secs(600);
const TTL: Duration = Duration::from_secs(7 * 24 * 3600);

#[derive(Debug, Error)]
pub enum ExportError {
    #[error("missing Idempotency-Key")]
    MissingKey,
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Shelf(#[from] pyxis::kv::ShelfError),
    #[error(transparent)]
    Render(#[from] crate::statements::RenderError),
}

pub struct Exports {
    shelf: Arc<Shelf>,
    files: Arc<StatementStore>,
}

impl Exports {
    pub async fn request(&self, ctx: Ctx, period: Period) -> Result<Reply, ExportError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(ExportError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "statements.export", k)?;
        let fp = Fingerprint::of("statements.export", period.to_string().as_bytes());

        let handle = self.spawn_render(key, fp, auth.tenant_id.clone(), period);
        drop(handle);
        Ok(Reply::accepted(format!("{{\"status\":\"scheduled\",\"key\":\"{}\"}}", k)))
    }

    fn spawn_render(&self, key: ScopedKey, fp: Fingerprint, tenant_id: String, period: Period) -> JoinHandle<Result<(), ExportError>> {
        let shelf = Arc::clone(&self.shelf);
        let files = Arc::clone(&self.files);
        tokio::spawn(async move {
            let Claimed::New = shelf.claim(&key, &fp, LEASE).await? else {
                return Ok(());
            };
            let pdf = render_pdf(&tenant_id, &period).await?;
            let location = files.upload(&tenant_id, &period, pdf).await?;
            let stored = StoredResponse { status: 200, headers: Vec::new(), body: location.into_bytes() };
            shelf.complete(&key, &stored, TTL).await?;
            Ok(())
        })
    }
}
