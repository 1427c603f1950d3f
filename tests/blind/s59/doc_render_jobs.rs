use std::time::Duration;

use feather::{next, AppContext, MiddlewareResult, Request, Response};
use idem_scope::{scoped, Problem};
use sluice::kv::SyncBucket;

use crate::render::{enqueue_render, RenderSpec};
use crate::tokens::{decode_workspace_token, WorkspaceToken};

pub struct RenderState {
    pub replays: SyncBucket,
    pub default_timeout: Duration,
}

pub fn render(req: &mut Request, res: &mut Response, ctx: &mut AppContext) -> MiddlewareResult {
    let state = ctx.get_state::<RenderState>();
    let Some(client_key) = req.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        let p = Problem::missing_key();
        res.set_status(p.status());
        res.send_text(p.to_json());
        return next!();
    };
    let token: WorkspaceToken = match req.headers.get("Authorization").and_then(|v| decode_workspace_token(v.as_bytes()).ok()) {
        Some(t) => t,
        None => {
            res.set_status(401);
            return next!();
        }
    };
    let workspace_id = if let Some(ws) = token.workspace_id.as_deref() {
        ws.to_owned()
    } else {
        "shared".to_owned()
    };
    let timeout = token.render_timeout_ms.map(Duration::from_millis).unwrap_or(state.default_timeout);

    let sk = match scoped(&workspace_id, &token.user_id, "documents.render", &client_key) {
        Ok(k) => k,
        Err(e) => {
            let p = Problem::invalid_key(&e.to_string());
            res.set_status(p.status());
            res.send_text(p.to_json());
            return next!();
        }
    };
    if let Ok(Some(job_id)) = state.replays.get::<String>(sk.storage_key()) {
        res.set_status(202);
        res.send_json(serde_json::json!({ "job_id": job_id, "replayed": true }));
        return next!();
    }
    let spec: RenderSpec = serde_json::from_slice(&req.body)?;
    state.replays.claim(sk.storage_key(), Duration::from_secs(60))?;
    let job_id = enqueue_render(&workspace_id, &token.user_id, &spec, timeout).map_err(|e| {
        state.replays.release(sk.storage_key());
        e
    })?;
    state.replays.complete(sk.storage_key(), &job_id);
    res.set_status(202);
    res.send_json(serde_json::json!({ "job_id": job_id }));
    next!()
}
