use std::future::{ready, Ready};

use actix_web::{dev::Payload, error, web, Error, FromRequest, HttpRequest, HttpResponse};
use rocksdb::{WriteBatch, DB};

use crate::auth::AuthContext;
use crate::tracking::{Subscription, TrackingHub};

pub struct ClientToken(String);

impl FromRequest for ClientToken {
    type Error = Error;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let v = req
            .headers()
            .get("x-idempotency-key")
            .and_then(|h| h.to_str().ok())
            .filter(|s| !s.is_empty())
            .map(|s| ClientToken(s.to_owned()));
        ready(v.ok_or_else(|| error::ErrorBadRequest("x-idempotency-key required")))
    }
}

fn composite(ctx: &AuthContext, token: &ClientToken) -> Vec<u8> {
    let mut buf = Vec::with_capacity(96);
    buf.extend_from_slice(ctx.merchant_id.as_bytes());
    buf.push(0);
    buf.extend_from_slice(ctx.user_id.as_bytes());
    buf.push(0);
    buf.extend_from_slice(b"tracking.subscribe");
    buf.push(0);
    buf.extend_from_slice(token.0.as_bytes());
    buf
}

pub async fn subscribe(
    ctx: AuthContext,
    token: ClientToken,
    body: web::Json<Subscription>,
    db: web::Data<DB>,
    hub: web::Data<TrackingHub>,
) -> actix_web::Result<HttpResponse> {
    let k = composite(&ctx, &token);
    if let Some(existing) = db.get(&k).map_err(error::ErrorInternalServerError)? {
        return Ok(HttpResponse::Ok().content_type("application/json").body(existing));
    }
    let sub = hub.subscribe(&ctx.merchant_id, body.into_inner()).await?;
    let json = serde_json::to_vec(&sub)?;
    let mut batch = WriteBatch::default();
    batch.put(&k, &json);
    batch.put(format!("subs/{}/{}", ctx.merchant_id, sub.id).as_bytes(), &json);
    db.write(batch).map_err(error::ErrorInternalServerError)?;
    Ok(HttpResponse::Created().json(sub))
}
