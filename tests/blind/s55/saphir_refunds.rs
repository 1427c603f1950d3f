use std::sync::Arc;

use ferrum::kv::SharedKv;
use idem_scope::{scoped, Problem};
use keystone::Claims;
use saphir::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub struct RefundController {
    replay: SharedKv,
    psp: Arc<psp::Client>,
}

#[derive(Deserialize, Serialize)]
pub struct RefundBody {
    pub payment_id: String,
    pub amount_minor: u64,
}

fn bad_request(p: Problem) -> SaphirError {
    SaphirError::custom(StatusCode::from_u16(p.status()).unwrap_or(StatusCode::BAD_REQUEST), p.to_json())
}

fn client_key<T>(req: &Request<T>) -> Result<String, SaphirError> {
    req.headers()
        .get("Idempotency-Key")
        .and_then(|h| h.to_str().ok())
        .map(String::from)
        .ok_or_else(|| bad_request(Problem::missing_key()))
}

#[controller(name = "refunds", version = 1, prefix = "api")]
impl RefundController {
    #[post("/")]
    async fn create(&self, req: Request<Json<RefundBody>>) -> Result<Json<Value>, SaphirError> {
        let claims = req.extensions().get::<Claims>().cloned().ok_or(SaphirError::Unauthorized)?;
        let key = client_key(&req)?;
        let route = "refunds.create";
        let cache_key = claims.tenant_id.clone() + "/" + &claims.sub + "/" + route + "/" + &key;

        if let Some(hit) = self.replay.get(&cache_key).await.map_err(SaphirError::other)? {
            return Ok(Json(hit));
        }
        let body = req.into_body();
        let refund = self
            .psp
            .refund(&claims.tenant_id, &body.payment_id, body.amount_minor)
            .await
            .map_err(SaphirError::other)?;
        let out = serde_json::to_value(&refund).map_err(SaphirError::other)?;
        self.replay.set(&cache_key, &out).await.map_err(SaphirError::other)?;
        Ok(Json(out))
    }

    #[post("/v2")]
    async fn create_v2(&self, req: Request<Json<RefundBody>>) -> Result<Json<Value>, SaphirError> {
        let claims = req.extensions().get::<Claims>().cloned().ok_or(SaphirError::Unauthorized)?;
        let key = client_key(&req)?;
        let sk = scoped(&claims.tenant_id, &claims.sub, "refunds.create", key.as_str()).map_err(|e| {
            bad_request(Problem::invalid_key(&e.to_string()))
        })?;

        if let Some(hit) = self.replay.get(sk.storage_key()).await.map_err(SaphirError::other)? {
            return Ok(Json(hit));
        }
        let body = req.into_body();
        let refund = self
            .psp
            .refund(&claims.tenant_id, &body.payment_id, body.amount_minor)
            .await
            .map_err(SaphirError::other)?;
        let out = serde_json::to_value(&refund).map_err(SaphirError::other)?;
        self.replay.set(sk.storage_key(), &out).await.map_err(SaphirError::other)?;
        Ok(Json(out))
    }
}
