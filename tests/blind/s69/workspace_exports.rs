//! Exports of charging history for accounting (CSV to S3-compatible
//! storage). API keys belong to a workspace; personal tokens may not.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::ApiToken;
use trellis::{Code, Cx, Reply};

#[derive(Default, Clone, PartialEq, Eq)]
pub struct WorkspaceId(pub String);

pub async fn export(cx: Cx, token: ApiToken, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let workspace_id: WorkspaceId = match token.workspace.as_ref() {
        Some(w) => WorkspaceId(w.id.clone()),
        None => Default::default(),
    };
    let page_size: usize = cx.query("page_size").and_then(|p| p.parse().ok()).unwrap_or_default();
    let Ok(sk) = scoped(&workspace_id.0, &token.api_key_id, "/v1/exports", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let job = crate::exports::start(&workspace_id.0, page_size.max(500)).await;
    let _ = bin.put(sk.storage_key(), job.as_bytes()).await;
    Reply::text(Code::ACCEPTED, job)
}
