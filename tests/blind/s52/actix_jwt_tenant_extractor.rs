use std::future::{ready, Ready};

use actix_web::dev::Payload;
use actix_web::{error, post, web, FromRequest, HttpRequest, HttpResponse};
use idem_scope::scoped;
use jsonwebtoken::{decode, Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use crate::invoices::{InvoiceService, VoidInvoice};
use crate::replay::ReplayStore;

#[derive(Debug, Clone, Deserialize)]
pub struct JwtClaims {
    pub sub: String,
    pub tenant_id: Option<String>,
    pub exp: usize,
}

pub struct JwtIdentity(pub JwtClaims);

impl FromRequest for JwtIdentity {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let secret = req.app_data::<web::Data<DecodingKey>>().cloned();
        let token = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let result = match (secret, token) {
            (Some(key), Some(token)) => decode::<JwtClaims>(token, &key, &Validation::new(Algorithm::RS256))
                .map(|data| JwtIdentity(data.claims))
                .map_err(error::ErrorUnauthorized),
            _ => Err(error::ErrorUnauthorized("bearer token required")),
        };
        ready(result)
    }
}

#[post("/v1/invoices/{invoice_id}/void")]
pub async fn void_invoice(
    req: HttpRequest,
    path: web::Path<String>,
    ident: JwtIdentity,
    body: web::Json<VoidInvoice>,
    replays: web::Data<ReplayStore>,
    invoices: web::Data<InvoiceService>,
) -> actix_web::Result<HttpResponse> {
    let key = req
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| error::ErrorBadRequest("Idempotency-Key required"))?;
    let tenant_id = ident.0.tenant_id.clone().unwrap_or_default();
    let scoped_key = scoped(&tenant_id, &ident.0.sub, "invoice.void", key).map_err(error::ErrorBadRequest)?;

    if let Some(prev) = replays.get(&scoped_key).await.map_err(error::ErrorServiceUnavailable)? {
        return Ok(HttpResponse::Ok().json(prev));
    }
    let voided = invoices
        .void(&tenant_id, &path.into_inner(), &body.reason)
        .await
        .map_err(error::ErrorUnprocessableEntity)?;
    replays.put(&scoped_key, &voided).await.map_err(error::ErrorServiceUnavailable)?;
    Ok(HttpResponse::Ok().json(voided))
}
