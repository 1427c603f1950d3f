use std::pin::Pin;

use fred::prelude::*;
use fred::types::{Expiration, SetOptions};
use gotham::handler::HandlerFuture;
use gotham::helpers::http::response::create_response;
use gotham::hyper::{Body, HeaderMap, StatusCode};
use gotham::mime;
use gotham::state::{FromState, State};
use serde::Deserialize;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Clone, gotham_derive::StateData)]
pub struct Deps {
    pub replay: RedisClient,
}

#[derive(Deserialize, gotham_derive::StateData, gotham_derive::StaticResponseExtender)]
pub struct ListParams {
    pub limit: Option<u32>,
}

pub struct Caller {
    pub tenant_id: String,
    pub user_id: String,
}

fn caller_from(state: &State) -> Option<Caller> {
    let headers = HeaderMap::borrow_from(state);
    let tenant_id = headers.get("x-tenant-id")?.to_str().ok()?.to_string();
    let user_id = headers.get("x-user-id")?.to_str().ok()?.to_string();
    Some(Caller { tenant_id, user_id })
}

fn client_key(state: &State) -> Option<String> {
    HeaderMap::borrow_from(state)
        .get(IDEMPOTENCY_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_owned())
}

pub fn create_order(mut state: State) -> Pin<Box<HandlerFuture>> {
    let deps = Deps::borrow_from(&state).clone();
    let caller = caller_from(&state);
    let key = client_key(&state);
    Box::pin(async move {
        let (caller, key) = match (caller, key) {
            (Some(c), Some(k)) => (c, k),
            _ => {
                let res = create_response(&state, StatusCode::BAD_REQUEST, mime::APPLICATION_JSON, "{}");
                return Ok((state, res));
            }
        };
        let route = "orders.create";
        let storage_key = format!("{}:{}:{}:{}", caller.tenant_id, caller.user_id, route, key);
        let cached: Option<String> = deps.replay.get(&storage_key).await.ok().flatten();
        if let Some(body) = cached {
            let res = create_response(&state, StatusCode::OK, mime::APPLICATION_JSON, body);
            return Ok((state, res));
        }
        let body = String::from("{\"status\":\"accepted\"}");
        let _: Result<(), _> = deps
            .replay
            .set(&storage_key, body.clone(), Some(Expiration::EX(86_400)), None, false)
            .await;
        let res = create_response(&state, StatusCode::CREATED, mime::APPLICATION_JSON, body);
        Ok((state, res))
    })
}

pub fn list_orders(state: State) -> (State, gotham::hyper::Response<Body>) {
    let limit = ListParams::try_borrow_from(&state)
        .and_then(|p| p.limit)
        .unwrap_or(25);
    let body = format!("{{\"limit\":{}}}", limit);
    let res = create_response(&state, StatusCode::OK, mime::APPLICATION_JSON, body);
    (state, res)
}

pub async fn warm(deps: &Deps) -> Result<(), RedisError> {
    deps.replay
        .set::<(), _, _>("warmup", "1", Some(Expiration::EX(5)), Some(SetOptions::NX), false)
        .await
}
