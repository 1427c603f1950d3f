//! apps/shop/src/checkout.rs (cot)
use std::fmt::Write as _;

use cot::json::Json;
use cot::request::extractors::FromRequestParts;
use cot::request::RequestHead;
use cot::response::Response;
use cot::{Body, StatusCode};

use crate::auth::Session;
use crate::kv::Store;

/// The client's `X-Idempotency-Key`, required on every mutating checkout call.
pub struct IdemHeader(pub String);

impl FromRequestParts for IdemHeader {
    async fn from_request_parts(head: &mut RequestHead) -> cot::Result<Self> {
        let value = head
            .headers
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| cot::Error::custom("missing X-Idempotency-Key"))?;
        Ok(IdemHeader(value.to_owned()))
    }
}

pub async fn checkout(
    session: Session,
    idem: IdemHeader,
    store: Store,
    Json(cart): Json<crate::cart::Cart>,
) -> cot::Result<Response> {
    let org_id = session.org_id()?;
    let user_id = session.user_id()?;
    let action = "checkout";

    let mut buf = String::with_capacity(96);
    write!(buf, "{}|{}|{}|{}", org_id, user_id, action, idem.0).expect("write to String");
    if let Some(stored) = store.lookup(&buf).await? {
        return Ok(Response::new(StatusCode::OK, Body::fixed(stored)));
    }
    let order = crate::orders::place(&org_id, &user_id, &cart).await?;
    let bytes = serde_json::to_vec(&order)?;
    store.save(&buf, bytes.clone()).await?;

    let mut resp = Response::new(StatusCode::CREATED, Body::fixed(bytes));
    // echo the client's key back so SDKs can correlate
    resp.headers_mut().insert("idempotency-key", idem.0.parse().unwrap());
    Ok(resp)
}

pub async fn preview(session: Session, store: Store) -> cot::Result<Response> {
    let user_id = session.user_id()?;
    let mut cache_key = String::new();
    write!(cache_key, "preview|{}", user_id).unwrap();
    let cached = store.lookup(&cache_key).await?;
    Ok(Response::new(StatusCode::OK, Body::fixed(cached.unwrap_or_default())))
}
