use std::collections::HashMap;

use idem_scope::{scoped, ScopedKey};
use tide::{Request, StatusCode};

use crate::state::GatewayState;

pub const MERCHANT_ID_NOT_FOUND: &str = "merchant-not-found";

pub struct ApiKeyDirectory {
    by_prefix: HashMap<String, (String, String)>,
}

impl ApiKeyDirectory {
    pub fn resolve(&self, bearer: &str) -> Option<&(String, String)> {
        let prefix = bearer.get(..12)?;
        self.by_prefix.get(prefix)
    }
}

pub fn request_key(req: &Request<GatewayState>, route: &str) -> tide::Result<ScopedKey> {
    let idem = req
        .header("Idempotency-Key")
        .map(|v| v.last().as_str().to_owned())
        .ok_or_else(|| tide::Error::from_str(StatusCode::BadRequest, "Idempotency-Key required"))?;
    let bearer = req
        .header("Authorization")
        .and_then(|v| v.last().as_str().strip_prefix("Bearer ").map(str::to_owned))
        .ok_or_else(|| tide::Error::from_str(StatusCode::Unauthorized, "missing credentials"))?;

    let (merchant_id, api_key_id) = match req.state().api_keys.resolve(&bearer) {
        Some((merchant_id, api_key_id)) => (merchant_id.as_str(), api_key_id.as_str()),
        None => (MERCHANT_ID_NOT_FOUND, "unknown-key"),
    };
    scoped(merchant_id, api_key_id, route, &idem).map_err(|e| tide::Error::new(StatusCode::BadRequest, e))
}

pub async fn create_payment(mut req: Request<GatewayState>) -> tide::Result {
    let key = request_key(&req, "payment.create")?;
    if let Some(prev) = req.state().replays.get(key.storage_key()).await? {
        return Ok(prev.into());
    }
    let body: serde_json::Value = req.body_json().await?;
    let payment = req.state().payments.create(&body).await?;
    let rendered = serde_json::to_string(&payment)?;
    req.state().replays.set(key.storage_key(), &rendered).await?;
    Ok(tide::Response::builder(StatusCode::Created).body(rendered).build())
}
