use std::sync::Arc;
use std::time::Duration;

use corvid::{Ctx, Reply};
use serde::Deserialize;
use tallow::Kv;

use crate::exports::ExportQueue;

#[derive(Deserialize, Clone)]
pub struct WorkspaceClaim {
    pub workspace_id: Option<String>,
    pub user_id: String,
    pub scopes: Vec<String>,
}

pub struct ExportState {
    pub kv: Arc<Kv>,
    pub queue: ExportQueue,
}

pub async fn start_export(ctx: Ctx<Arc<ExportState>>) -> Reply {
    let Some(claim) = ctx.extension::<WorkspaceClaim>().cloned() else {
        return Reply::problem(401, "no workspace claim on the request");
    };
    let workspace_id: String = match claim.workspace_id.clone() {
        Some(ws) => ws,
        None => Default::default(),
    };
    let page_size = ctx.query::<usize>("page_size").unwrap_or_default().clamp(1, 500);
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };

    let sk = match idem_scope::scoped(&workspace_id, &claim.user_id, "exports.start", &client_key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(400, &e.to_string()),
    };
    if let Some(prev) = ctx.state().kv.get(sk.storage_key()).await? {
        return Reply::bytes(200, prev);
    }

    let job = ctx.state().queue.enqueue(&workspace_id, &claim.user_id, page_size).await?;
    let body = serde_json::to_vec(&job)?;
    ctx.state().kv.put(sk.storage_key(), &body, Duration::from_secs(86_400)).await?;
    Reply::bytes(202, body)
}
