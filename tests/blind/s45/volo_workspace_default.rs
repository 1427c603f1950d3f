use idem_scope::{scoped, Problem};
use volo_http::http::HeaderMap;
use volo_http::server::extract::State;

#[derive(Clone)]
pub struct DocsCtx {
    publishes: PublishLog,
    docs: DocService,
}

#[derive(Default, Clone)]
pub struct WorkspaceRef {
    pub workspace_id: String,
}

fn workspace_from(headers: &HeaderMap) -> Option<WorkspaceRef> {
    headers.get("x-workspace").and_then(|v| v.to_str().ok()).map(|w| WorkspaceRef { workspace_id: w.to_owned() })
}

pub async fn publish_doc(State(ctx): State<DocsCtx>, headers: HeaderMap) -> Result<String, Problem> {
    let publish_token = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(Problem::missing_key)?;
    let ws: WorkspaceRef = match workspace_from(&headers) {
        Some(w) => w,
        None => Default::default(),
    };
    let user_id = headers.get("x-user-id").and_then(|v| v.to_str().ok()).ok_or_else(|| Problem::invalid_key("no user"))?;
    let key = scoped(&ws.workspace_id, user_id, "docs.publish", publish_token).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = ctx.publishes.get(&key).await {
        return Ok(done);
    }
    let url = ctx.docs.publish(&ws.workspace_id).await;
    ctx.publishes.set(&key, &url).await;
    Ok(url)
}
