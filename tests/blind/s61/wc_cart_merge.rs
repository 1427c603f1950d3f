use std::collections::HashMap;
use std::sync::RwLock;

use serde::{Deserialize, Serialize};
use wasmbus_rpc::actor::prelude::*;
use wasmcloud_interface_httpserver::{HttpRequest, HttpResponse, HttpServer, HttpServerReceiver};

#[derive(Debug, Default, Actor, HealthResponder)]
#[services(Actor, HttpServer)]
struct CartMerge {
    merged: RwLock<HashMap<String, Vec<u8>>>,
}

#[derive(Deserialize)]
struct MergeRequest {
    guest_cart: String,
    user_cart: String,
}

#[derive(Serialize)]
struct MergeResult {
    cart: String,
    moved_items: u32,
}

fn header_value(req: &HttpRequest, name: &str) -> Option<String> {
    req.header
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v.first().cloned())
}

#[async_trait]
impl HttpServer for CartMerge {
    async fn handle_request(&self, _ctx: &Context, req: &HttpRequest) -> RpcResult<HttpResponse> {
        if req.method != "POST" || req.path != "/v1/carts/merge" {
            return Ok(HttpResponse { status_code: 404, ..Default::default() });
        }
        let Some(key) = header_value(req, "X-Idempotency-Key").map(|k| k.trim().to_owned()) else {
            return Ok(HttpResponse { status_code: 400, ..Default::default() });
        };
        let input: MergeRequest = serde_json::from_slice(&req.body).map_err(|e| RpcError::Deser(e.to_string()))?;

        let mut merged = self.merged.write().map_err(|_| RpcError::Other("poisoned".into()))?;
        let body = merged
            .entry(key)
            .or_insert_with(|| {
                let result = MergeResult { cart: input.user_cart.clone(), moved_items: input.guest_cart.len() as u32 % 17 };
                serde_json::to_vec(&result).unwrap_or_default()
            })
            .clone();
        Ok(HttpResponse { status_code: 200, body, ..Default::default() })
    }
}
