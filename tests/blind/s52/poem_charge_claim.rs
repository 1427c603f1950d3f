use std::sync::Arc;

use idem_scope::{scoped, Claimed, Fingerprint, ScopedKey, StoredResponse};
use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{handler, Body, Error, Request, Response, Result};
use serde::Deserialize;

use crate::auth::ApiPrincipal;
use crate::psp::Psp;
use crate::store::PgIdemStore;

#[derive(Deserialize)]
struct ChargeReq {
    amount_minor: i64,
    currency: String,
    source: String,
}

fn bad_request<E: std::fmt::Display>(e: E) -> Error {
    Error::from_string(e.to_string(), StatusCode::BAD_REQUEST)
}

fn replay(stored: StoredResponse) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK))
        .header("Idempotent-Replayed", "true")
        .body(stored.body)
}

#[handler]
pub async fn create_charge(
    req: &Request,
    body: Body,
    auth: Data<&ApiPrincipal>,
    store: Data<&Arc<PgIdemStore>>,
    psp: Data<&Psp>,
) -> Result<Response> {
    let idem = req
        .header("Idempotency-Key")
        .ok_or_else(|| Error::from_status(StatusCode::BAD_REQUEST))?;
    let key: ScopedKey = scoped(&auth.tenant_id, &auth.user_id, "charge.create", idem).map_err(bad_request)?;
    let raw = body.into_vec().await?;
    let fp = Fingerprint::of("charge.create", &raw);

    match store.claim(&key, &fp).await.map_err(|_| Error::from_status(StatusCode::SERVICE_UNAVAILABLE))? {
        Claimed::Existing(_, Some(stored)) => return Ok(replay(stored)),
        Claimed::Existing(_, None) => {
            let detail = format!("a request with Idempotency-Key {idem} is still being processed");
            return Err(Error::from_string(detail, StatusCode::CONFLICT));
        }
        Claimed::New => {}
    }

    let charge_req: ChargeReq = serde_json::from_slice(&raw).map_err(bad_request)?;
    let charge = psp
        .charge(&auth.tenant_id, charge_req.amount_minor, &charge_req.currency, &charge_req.source)
        .await
        .map_err(|_| Error::from_status(StatusCode::BAD_GATEWAY))?;
    let body = serde_json::to_vec(&charge).map_err(bad_request)?;
    let stored = StoredResponse { status: 201, headers: Vec::new(), body: body.clone() };
    store.complete(&key, &stored).await.map_err(|_| Error::from_status(StatusCode::SERVICE_UNAVAILABLE))?;
    Ok(Response::builder().status(StatusCode::CREATED).content_type("application/json").body(body))
}
