use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct Manifest {
    pub lines: Vec<ManifestLine>,
}

#[derive(Deserialize)]
pub struct ManifestLine {
    pub sku: String,
    pub qty: u32,
}

#[derive(Clone)]
pub struct Manifests {
    pub vat: Arc<Vat>,
    pub wms: Arc<wms::Client>,
}

fn clean_key(raw: &str) -> String {
    let mut key = raw.to_owned();
    key.retain(|c| c != '\u{1e}');
    key
}

pub async fn submit_manifest(ctx: Ctx, caller: Caller, State(m): State<Manifests>, Json(mut manifest): Json<Manifest>) -> Result<Reply, Problem> {
    let raw = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let key = clean_key(raw);
    let sk = scoped(&caller.tenant_id, &caller.user_id, "submit_manifest", &key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = m.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    manifest.lines.retain(|line| line.qty > 0);
    let receipt = m.wms.submit(&caller.tenant_id, &manifest.lines).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = m.vat.put(sk.storage_key(), receipt.to_json()).await;
    Ok(Reply::bytes(Status::ACCEPTED, receipt.to_json()))
}
