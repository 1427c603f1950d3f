use idem_scope::{scoped, Problem, ScopedKey};
use quillon::auth::Caller;
use quillon::{Bytes, Ctx, Rejection, Reply};

use crate::replay_store::AsyncStore;

pub struct CatalogImports {
    replays: AsyncStore,
    catalog: crate::catalog::Catalog,
}

fn reject_reserved(sku_prefix: &str) -> Result<&str, Rejection> {
    if sku_prefix.contains([':', '|', '#']) {
        return Err(Rejection::bad_request("sku prefix contains a reserved character"));
    }
    Ok(sku_prefix)
}

impl CatalogImports {
    /// POST /v1/catalog/imports — body is the CSV to import.
    pub async fn start(&self, ctx: &Ctx, caller: Caller, body: Option<Bytes>) -> Result<Reply, Rejection> {
        let prefix = reject_reserved(ctx.query("sku_prefix").unwrap_or("SKU"))?;
        let sk: Option<ScopedKey> = body
            .as_ref()
            .and_then(|b| orion::hash::digest(b).ok())
            .map(|d| const_hex::encode(d.as_ref()))
            .and_then(|tag| scoped(&caller.tenant_id, &caller.user_id, "catalog.import", &tag).ok());
        let Some(sk) = sk else {
            return Err(Rejection::problem(Problem::invalid_key("empty import")));
        };

        if let Some(prev) = self.replays.get(sk.storage_key()).await.map_err(Rejection::internal)? {
            return Ok(Reply::bytes(200, prev).header("Idempotent-Replayed", "true"));
        }
        let import_run_id = crate::ids::next_import_run_id();
        let summary = self
            .catalog
            .import_csv(&caller.tenant_id, prefix, body.as_deref().unwrap_or_default(), &import_run_id)
            .await
            .map_err(Rejection::upstream)?;
        let out = serde_json::to_vec(&(import_run_id, summary)).map_err(Rejection::internal)?;
        self.replays
            .put(sk.storage_key(), &out, std::time::Duration::from_secs(3600))
            .await
            .map_err(Rejection::internal)?;
        Ok(Reply::bytes(202, out))
    }
}
