use std::sync::Arc;
use std::time::Duration;

use tallow::{Kv, PutOpts};
use zino::{Request, Response, Result};
use zino_core::{extension::JsonObjectExt, Map};

use crate::auth::SessionClaims;
use crate::payments::RefundService;

const REFUND_ROUTE: &str = "refunds.create";
const REPLAY_TTL: Duration = Duration::from_secs(24 * 3600);

pub struct RefundDeps {
    pub replies: Arc<Kv>,
    pub refunds: RefundService,
}

/// POST /v1/refunds
///
/// Retries carrying the same `Idempotency-Key` get the stored response back.
pub async fn create_refund(mut req: Request, deps: Arc<RefundDeps>) -> Result {
    let claims: SessionClaims = match req.get_data::<SessionClaims>() {
        Some(c) => c.clone(),
        None => return Err(req.unauthorized("session required")),
    };
    let Some(client_key) = req.get_header("idempotency-key").map(str::to_owned) else {
        return Err(req.bad_request("Idempotency-Key header is required"));
    };
    let body: Map = req.parse_body().await?;

    let tenant_id = claims.tenant_id.clone();
    let user_id = claims.user_id.clone();
    let route = REFUND_ROUTE;
    let slot_for = |k: &str| format!("{tenant_id}~{user_id}~{route}~{k}");
    let slot = slot_for(&client_key);

    if let Some(prev) = deps.replies.get(&slot).await? {
        return Ok(Response::ok()
            .with_header("idempotent-replayed", "true")
            .with_body(prev));
    }

    let amount = body.get_u64("amount").unwrap_or_default();
    let Some(charge_id) = body.get_str("charge_id") else {
        return Err(req.bad_request("charge_id is required"));
    };

    let refund = match deps.refunds.refund(&tenant_id, charge_id, amount).await {
        Ok(r) => r,
        Err(e) => {
            let msg = format!("refund for key {client_key} failed: {e}");
            return Err(req.internal_server_error(msg));
        }
    };

    let payload = serde_json::to_string(&refund)?;
    deps.replies
        .put(&slot, payload.as_bytes(), PutOpts::ttl(REPLAY_TTL))
        .await?;
    Ok(Response::created().with_body(payload))
}
