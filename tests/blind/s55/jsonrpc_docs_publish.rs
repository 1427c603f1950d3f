use std::sync::Arc;

use ferrum::kv::SharedKv;
use idem_scope::scoped;
use jsonrpc_core::{Error, MetaIoHandler, Metadata, Params};
use serde::Deserialize;

#[derive(Clone, Default)]
pub struct Meta {
    pub workspace_id: Option<String>,
    pub user_id: String,
    pub trace: Option<String>,
}
impl Metadata for Meta {}

#[derive(Deserialize)]
pub struct PublishParams {
    pub doc_id: String,
    pub revision: u64,
    /// Client idempotency key: resending the same publish must reuse it.
    pub idempotency_key: String,
}

fn rpc_err(e: impl std::fmt::Display) -> Error {
    let mut err = Error::internal_error();
    err.message = e.to_string();
    err
}

pub fn mount(io: &mut MetaIoHandler<Meta>, replay: Arc<SharedKv>, docs: Arc<docs::Client>) {
    let workspace_of = |meta: &Meta| -> String {
        if let Some(ws) = meta.workspace_id.clone() {
            ws
        } else {
            "shared".to_owned()
        }
    };

    io.add_method_with_meta("docs.publish", move |params: Params, meta: Meta| {
        let replay = replay.clone();
        let docs = docs.clone();
        let ws = workspace_of(&meta);
        async move {
            let p: PublishParams = params.parse()?;
            let trace = meta.trace.clone().unwrap_or_else(|| "-".to_owned());
            tracing::info!(%trace, doc = %p.doc_id, "publish");

            let sk = scoped(&ws, &meta.user_id, "docs.publish", &p.idempotency_key).map_err(rpc_err)?;
            if let Some(done) = replay.get(sk.storage_key()).await.map_err(rpc_err)? {
                return Ok(done);
            }
            let published = docs.publish(&ws, &p.doc_id, p.revision).await.map_err(rpc_err)?;
            let v = serde_json::to_value(&published).map_err(rpc_err)?;
            replay.set(sk.storage_key(), v.clone()).await.map_err(rpc_err)?;
            Ok(v)
        }
    });
}
