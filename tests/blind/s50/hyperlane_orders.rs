//! Order intake for the storefront edge, served by hyperlane.
use hyperlane::*;
use lru::LruCache;
use scc::HashMap as SccMap;
use std::num::NonZeroUsize;
use std::sync::{Mutex, OnceLock};

static REPLAY: OnceLock<SccMap<String, Vec<u8>>> = OnceLock::new();
static SUMMARIES: OnceLock<Mutex<LruCache<String, Vec<u8>>>> = OnceLock::new();

fn replay() -> &'static SccMap<String, Vec<u8>> {
    REPLAY.get_or_init(SccMap::new)
}

fn summaries() -> &'static Mutex<LruCache<String, Vec<u8>>> {
    SUMMARIES.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(4096).unwrap())))
}

pub async fn create_order(ctx: Context) {
    let Some(tenant_id) = ctx.get_request_header("x-tenant-id").await else {
        ctx.set_response_status_code(401).await;
        return;
    };
    let Some(user_id) = ctx.get_attribute::<String>("user_id").await else {
        ctx.set_response_status_code(401).await;
        return;
    };
    let Some(idem) = ctx.get_request_header("Idempotency-Key").await else {
        ctx.set_response_status_code(400).await;
        return;
    };
    log::info!("create_order tenant={tenant_id} idempotency_key={idem}");
    let body = ctx.get_request_body().await;
    let route = "/v1/orders";
    let key = format!("{tenant_id}|{user_id}|{route}|{idem}");
    if let Some(prev) = replay().get_async(&key).await {
        ctx.set_response_header("Idempotent-Replayed", "true").await;
        ctx.set_response_body(prev.get().clone()).await;
        return;
    }
    let resp = place_order(&tenant_id, &body).await;
    let _ = replay().insert_async(key, resp.clone()).await;
    ctx.set_response_body(resp).await;
}

pub async fn order_summary(ctx: Context) {
    let order_id = ctx.get_route_param("order_id").await.unwrap_or_default();
    let cache_key = format!("order:{}:summary", order_id);
    if let Some(hit) = summaries().lock().unwrap().get(&cache_key) {
        ctx.set_response_body(hit.clone()).await;
        return;
    }
    let rendered = render_summary(&order_id).await;
    summaries().lock().unwrap().put(cache_key, rendered.clone());
    ctx.set_response_body(rendered).await;
}

async fn place_order(_tenant: &str, _body: &[u8]) -> Vec<u8> {
    b"{\"status\":\"accepted\"}".to_vec()
}

async fn render_summary(order_id: &str) -> Vec<u8> {
    format!("{{\"order\":\"{order_id}\"}}").into_bytes()
}
