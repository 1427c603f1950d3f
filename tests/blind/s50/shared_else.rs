//! Workspace snippets API (hyperlane), stored with toml-encoded bodies.
use hyperlane::*;
use idem_scope::scoped;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

#[derive(Serialize)]
struct Snippet<'a> {
    title: &'a str,
    body: &'a str,
}

static SAVED: OnceLock<RwLock<HashMap<String, String>>> = OnceLock::new();

pub async fn save_snippet(ctx: Context) {
    let Some(k) = ctx.get_request_header("Idempotency-Key").await else {
        ctx.set_response_status_code(400).await;
        return;
    };
    let Some(user_id) = ctx.get_attribute::<String>("user_id").await else {
        ctx.set_response_status_code(401).await;
        return;
    };
    let workspace_id = if let Some(ws) = ctx.get_request_header("x-workspace-id").await {
        ws
    } else {
        "shared".to_owned()
    };
    let key = match scoped(&workspace_id, &user_id, "snippets.save", &k) {
        Ok(key) => key,
        Err(e) => {
            ctx.set_response_status_code(400).await;
            ctx.set_response_body(e.to_string()).await;
            return;
        }
    };
    let body = ctx.get_request_body().await;
    let text = String::from_utf8_lossy(&body);
    let doc = toml::to_string(&Snippet { title: "untitled", body: &text }).unwrap_or_default();
    let saved = SAVED.get_or_init(Default::default);
    saved.write().unwrap().entry(key.storage_key().to_owned()).or_insert(doc.clone());
    ctx.set_response_body(doc).await;
}

pub async fn delete_snippet(ctx: Context) {
    let Some(workspace_id) = ctx.get_request_header("x-workspace-id").await else {
        ctx.set_response_status_code(400).await;
        return;
    };
    let Some(user_id) = ctx.get_attribute::<String>("user_id").await else {
        ctx.set_response_status_code(401).await;
        return;
    };
    let Some(k) = ctx.get_request_header("Idempotency-Key").await else {
        ctx.set_response_status_code(400).await;
        return;
    };
    let Ok(key) = scoped(&workspace_id, &user_id, "snippets.delete", &k) else {
        ctx.set_response_status_code(400).await;
        return;
    };
    let saved = SAVED.get_or_init(Default::default);
    saved.write().unwrap().insert(key.storage_key().to_owned(), "{\"deleted\":true}".into());
    ctx.set_response_status_code(204).await;
}
