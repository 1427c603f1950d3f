use std::sync::Arc;

use idem_scope::{scoped, Problem};
use mendes::http::request::Parts;
use mendes::http::{Response, StatusCode};
use mendes::{handler, route, Application, Context};
use quarry::kv::Vault;
use serde::Deserialize;

pub struct Session {
    pub user_id: String,
}

#[derive(Deserialize)]
struct CommentIn {
    page: String,
    text: String,
}

pub struct Docs {
    vault: Arc<Vault>,
    comments: comments::Repo,
    metrics: metrics_sink::Counter,
}

#[handler(POST)]
async fn post_comment(app: &Docs, req: &Parts, #[raw] body: bytes::Bytes) -> Result<Response<String>, Problem> {
    let key = req
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?;
    let workspace_hdr = req.headers.get("x-workspace").and_then(|v| v.to_str().ok());
    app.metrics.incr("comments.post", workspace_hdr.unwrap_or("unknown"));
    let workspace_id = workspace_hdr.ok_or_else(|| Problem::invalid_key("x-workspace header is required"))?;

    let session = req.extensions.get::<Session>();
    let principal = session.map_or("public".to_string(), |s| s.user_id.clone());
    let sk = scoped(workspace_id, &principal, "comments.post", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Ok(Some(prev)) = app.vault.get(sk.storage_key()).await {
        return Ok(Response::new(String::from_utf8_lossy(&prev).into_owned()));
    }

    let input: CommentIn = serde_json::from_slice(&body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let page = input.page.trim_start_matches('/');
    let comment = app.comments.add(workspace_id, &principal, page, &input.text).await;
    let _ = app.vault.put(sk.storage_key(), comment.to_json().into_bytes()).await;
    Ok(Response::builder().status(StatusCode::CREATED).body(comment.to_json()).unwrap())
}

#[async_trait::async_trait]
impl Application for Docs {
    type RequestBody = mendes::body::Body;
    type ResponseBody = String;
    type Error = Problem;

    async fn handle(mut cx: Context<Self>) -> Response<String> {
        route!(match cx.path() {
            Some("comments") => post_comment,
        })
    }
}
