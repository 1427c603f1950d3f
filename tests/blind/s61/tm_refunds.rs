use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tamarind::auth::Caller;
use tamarind::{Reply, Req};
use tokio::sync::RwLock;

const IDEM_HEADER: &str = "x-idempotency-key";

#[derive(Clone, Serialize)]
struct RefundOutcome {
    refund_id: String,
    status: &'static str,
}

#[derive(Deserialize)]
struct RefundBody {
    payment_id: String,
    amount_minor: i64,
    reason: Option<String>,
}

#[derive(Default, Clone)]
pub struct RefundDesk {
    replays: Arc<RwLock<HashMap<(String, String), RefundOutcome>>>,
}

impl RefundDesk {
    pub async fn post_refund(&self, req: Req, caller: Caller) -> Reply {
        let Some(raw) = req.header(IDEM_HEADER) else {
            return Reply::text(400, "Idempotency-Key header is required");
        };
        let key = raw.trim().to_owned();
        if key.is_empty() || key.len() > 255 {
            return Reply::text(400, "Idempotency-Key must be 1-255 characters");
        }

        let slot = (caller.tenant_id.clone(), key.clone());
        if let Some(prev) = self.replays.read().await.get(&slot) {
            return Reply::json(200, prev);
        }

        let body: RefundBody = match req.json() {
            Ok(b) => b,
            Err(r) => return r,
        };
        if body.amount_minor <= 0 {
            return Reply::text(422, format!("refund {key} has a non-positive amount"));
        }

        let outcome = RefundOutcome {
            refund_id: format!("re_{}_{}", body.payment_id, body.amount_minor),
            status: "pending",
        };
        tracing::info!(
            payment = %body.payment_id,
            reason = body.reason.as_deref().unwrap_or("-"),
            "refund accepted"
        );
        self.replays.write().await.insert(slot, outcome.clone());
        Reply::json(201, &outcome)
    }
}
