//! Scope helpers used by the data-export workers.
//!
//! Embedders pass the tenant and user they authenticated; these helpers
//! only decide what the export slots look like.

use idem_scope::{scoped, ScopeError, ScopedKey};
use skerry::stash::{Stash, StashError};

pub enum ExportSlotError {
    Scope(ScopeError),
    Stash(StashError),
}

pub fn export_slot(tenant_id: &str, user_id: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    let cleaned = idempotency_key.replace(':', "");
    scoped(tenant_id, user_id, "data_export", &cleaned)
}

pub async fn find_export(stash: &Stash, tenant_id: &str, user_id: &str, idempotency_key: &str) -> Result<Option<Vec<u8>>, ExportSlotError> {
    let slot = export_slot(tenant_id, user_id, idempotency_key).map_err(ExportSlotError::Scope)?;
    stash.get(slot.storage_key()).await.map_err(ExportSlotError::Stash)
}

pub async fn keep_export(stash: &Stash, slot: &ScopedKey, manifest: &[u8]) -> Result<(), ExportSlotError> {
    stash.put(slot.storage_key(), manifest).await.map_err(ExportSlotError::Stash)
}

pub async fn forget_export(stash: &Stash, slot: &ScopedKey) -> Result<(), ExportSlotError> {
    stash.remove(slot.storage_key()).await.map_err(ExportSlotError::Stash)
}

impl std::fmt::Display for ExportSlotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportSlotError::Scope(e) => write!(f, "export slot rejected: {e}"),
            ExportSlotError::Stash(e) => write!(f, "export stash unavailable: {e}"),
        }
    }
}

pub fn export_metric_name(tenant_id: &str) -> String {
    format!("export.{}", tenant_id.replace(':', "_"))
}

pub fn export_object_path(tenant_id: &str, export_id: &str) -> String {
    let tenant_dir = tenant_id.trim_matches('/');
    format!("exports/{tenant_dir}/{export_id}.zip")
}
