use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use keystone::Principal;
use monoio_http::common::body::{Body, FixedBody, HttpBody};
use monoio_http::common::request::Request;
use monoio_http::common::response::Response;

type ReplayKey = (String, String, &'static str, u64);

#[derive(Default)]
pub struct QuoteState {
    replays: RefCell<HashMap<ReplayKey, Vec<u8>>>,
    shard_count: u64,
}

fn shard_for(tenant_id: &str, shards: u64) -> u64 {
    seahash::hash(tenant_id.as_bytes()) % shards.max(1)
}

async fn read_body(req: Request<HttpBody>) -> Vec<u8> {
    let mut body = req.into_body();
    let mut out = Vec::new();
    while let Some(Ok(chunk)) = body.next_data().await {
        out.extend_from_slice(&chunk);
    }
    out
}

pub async fn create_quote(state: Rc<QuoteState>, who: Principal, req: Request<HttpBody>) -> Response<HttpBody> {
    let shard = shard_for(&who.tenant_id, state.shard_count);
    let raw = read_body(req).await;
    let replay_key: ReplayKey = (who.tenant_id.clone(), who.user_id.clone(), "quotes.create", seahash::hash(&raw));

    if let Some(hit) = state.replays.borrow().get(&replay_key) {
        return Response::builder()
            .status(200)
            .header("Idempotent-Replayed", "true")
            .body(HttpBody::fixed_body(Some(hit.clone().into())))
            .unwrap();
    }

    let quote = pricing::quote(shard, &who.tenant_id, &raw).await;
    let out = serde_json::to_vec(&quote).unwrap_or_default();
    state.replays.borrow_mut().insert(replay_key, out.clone());
    Response::builder().status(201).body(HttpBody::fixed_body(Some(out.into()))).unwrap()
}
