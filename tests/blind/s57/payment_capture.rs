use std::sync::Arc;
use std::time::Duration;

use corvid::extract::{FromRequestParts, Parts, Path, Rejection};
use corvid::{Ctx, Reply};
use tallow::Kv;

use crate::gateway::PaymentGateway;

const LEASE: Duration = Duration::from_secs(300);
const KEEP: Duration = Duration::from_secs(86_400);

pub struct IdemHeader(String);

impl IdemHeader {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromRequestParts for IdemHeader {
    fn from_request_parts(parts: &Parts) -> Result<Self, Rejection> {
        match parts.headers.get("idempotency-key").map(|v| v.to_str()) {
            Some(Ok(v)) if !v.is_empty() => Ok(IdemHeader(v.to_owned())),
            _ => Err(Rejection::bad_request("Idempotency-Key header is required")),
        }
    }
}

pub struct CaptureState {
    pub kv: Arc<Kv>,
    pub gateway: PaymentGateway,
}

/// POST /v1/payments/{id}/capture
pub async fn capture(ctx: Ctx<CaptureState>, key: IdemHeader, Path(payment_id): Path<String>) -> Reply {
    let caller = ctx.caller()?;
    let sk = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "payments.capture", key.as_str())?;

    if let Some(done) = ctx.state().kv.get(sk.storage_key()).await? {
        return Reply::bytes(200, done).header("Idempotent-Replayed", "true");
    }

    let claimed = ctx.state().kv.claim(sk.storage_key(), LEASE).await?;
    if !claimed {
        return Reply::problem(409, "a request with this Idempotency-Key is in progress");
    }

    let payment = ctx.state().gateway.capture(&caller.tenant_id, &payment_id).await?;
    let body = serde_json::to_vec(&payment)?;
    ctx.state().kv.complete(sk.storage_key(), &body, KEEP).await?;
    Reply::bytes(200, body)
}
