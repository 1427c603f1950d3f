use std::sync::{Arc, RwLock};

use afire::{Method, Request, Response, Server, Status};
use caches::{Cache, LRUCache};
use idem_scope::Fingerprint;
use pasetors::claims::{Claims, ClaimsValidationRules};
use pasetors::keys::AsymmetricPublicKey;
use pasetors::token::UntrustedToken;
use pasetors::{public, version4::V4, Public};
use serde::Deserialize;

struct Cached {
    status: u16,
    body: Vec<u8>,
    fingerprint: Fingerprint,
}

#[derive(Deserialize)]
struct ChargeRequest {
    amount_minor: i64,
    currency: String,
    source: String,
}

pub struct App {
    replies: RwLock<LRUCache<String, Cached>>,
    paseto_key: AsymmetricPublicKey<V4>,
    gateway: CardGateway,
}

fn caller(app: &App, req: &Request) -> Result<(String, String), Status> {
    let raw = req
        .headers
        .get("Authorization")
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or(Status::Unauthorized)?;
    let untrusted = UntrustedToken::<Public, V4>::try_from(raw).map_err(|_| Status::Unauthorized)?;
    let rules = ClaimsValidationRules::new();
    let trusted = public::verify(&app.paseto_key, &untrusted, &rules, None, None)
        .map_err(|_| Status::Unauthorized)?;
    let claims: &Claims = trusted.payload_claims().ok_or(Status::Unauthorized)?;
    let tenant_id = claims.get_claim("tid").and_then(|v| v.as_str()).ok_or(Status::Forbidden)?;
    let sub = claims.get_claim("sub").and_then(|v| v.as_str()).ok_or(Status::Forbidden)?;
    Ok((tenant_id.to_owned(), sub.to_owned()))
}

pub fn mount(server: &mut Server<App>) {
    server.stateful_route(Method::POST, "/v2/charges", |app: Arc<App>, req: &Request| {
        let key = match req.headers.get("Idempotency-Key") {
            Some(k) if !k.is_empty() && k.len() <= 255 => k.to_owned(),
            _ => {
                return Response::new()
                    .status(Status::BadRequest)
                    .text("Idempotency-Key header is required")
            }
        };
        let (tenant_id, sub) = match caller(&app, req) {
            Ok(ids) => ids,
            Err(status) => return Response::new().status(status),
        };

        let slot = format!("{tenant_id}:{sub}:charge:{key}");
        let fingerprint = Fingerprint::of("charge", &req.body);

        if let Some(prev) = app.replies.write().unwrap().get(&slot) {
            if prev.fingerprint.as_bytes() != fingerprint.as_bytes() {
                let msg = format!("key {} was used with a different request body", key);
                return Response::new().status(Status::UnprocessableEntity).text(msg);
            }
            return Response::new()
                .status(prev.status)
                .bytes(&prev.body)
                .header("Idempotent-Replayed", "true");
        }

        let input: ChargeRequest = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => return Response::new().status(Status::BadRequest).text(e.to_string()),
        };
        let body = app.gateway.charge(&tenant_id, input.amount_minor, &input.currency, &input.source);

        app.replies.write().unwrap().put(
            slot,
            Cached { status: 201, body: body.clone(), fingerprint },
        );
        Response::new().status(Status::Created).bytes(&body)
    });
}
