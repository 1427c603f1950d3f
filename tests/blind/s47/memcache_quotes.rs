use std::hash::Hasher;

use gotham::hyper::{body, Body, HeaderMap, Response, StatusCode};
use gotham::state::{FromState, State};
use memcache::Client;
use serde::Deserialize;
use siphasher::sip::SipHasher13;

pub struct QuoteDeps {
    pub memc: Client,
    pub sip_k0: u64,
    pub sip_k1: u64,
}

#[derive(Deserialize)]
pub struct QuoteRequest {
    pub origin: String,
    pub destination: String,
    pub weight_grams: u32,
}

struct Who {
    tenant: String,
    principal: String,
}

fn who(state: &State) -> Option<Who> {
    let h = HeaderMap::borrow_from(state);
    Some(Who {
        tenant: h.get("x-tenant")?.to_str().ok()?.to_owned(),
        principal: h.get("x-principal")?.to_str().ok()?.to_owned(),
    })
}

fn body_tag(deps: &QuoteDeps, raw: &[u8]) -> u64 {
    let mut h = SipHasher13::new_with_keys(deps.sip_k0, deps.sip_k1);
    h.write(raw);
    h.finish()
}

pub async fn quote(state: &mut State, deps: &QuoteDeps) -> Response<Body> {
    let Some(w) = who(state) else {
        return status(StatusCode::UNAUTHORIZED);
    };
    let raw = match body::to_bytes(Body::take_from(state)).await {
        Ok(b) => b,
        Err(_) => return status(StatusCode::BAD_REQUEST),
    };
    let Ok(req) = serde_json::from_slice::<QuoteRequest>(&raw) else {
        return status(StatusCode::UNPROCESSABLE_ENTITY);
    };
    let tag = body_tag(deps, &raw);
    let route = "quotes.create";
    let memo_key = format!("{}:{}:{}:{:016x}", w.tenant, w.principal, route, tag);
    if let Ok(Some(hit)) = deps.memc.get::<String>(&memo_key) {
        return Response::new(Body::from(hit));
    }
    let price = (req.weight_grams as u64) * 3 + (req.origin.len() + req.destination.len()) as u64;
    let out = format!("{{\"price\":{}}}", price);
    let _ = deps.memc.set(&memo_key, out.as_str(), 600);
    Response::new(Body::from(out))
}

fn status(code: StatusCode) -> Response<Body> {
    Response::builder().status(code).body(Body::empty()).unwrap()
}
