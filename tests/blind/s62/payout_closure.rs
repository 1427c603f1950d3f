use std::sync::Arc;

use idem_scope::Problem;
use quarry::kv::Vault;
use serde::{Deserialize, Serialize};
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct PayoutIn {
    pub destination: String,
    pub amount_minor: u64,
    pub note: String,
}

#[derive(Serialize, Deserialize)]
struct PayoutOut {
    payout_id: String,
    memo: String,
    batch_limit: u32,
}

pub struct Payouts {
    vault: Arc<Vault>,
    gateway: Arc<dyn PayoutGateway>,
}

pub trait PayoutGateway: Send + Sync {
    fn submit(&self, destination: &str, amount_minor: u64, memo: &str) -> anyhow::Result<String>;
}

impl Payouts {
    pub async fn create(&self, ctx: Ctx, Json(body): Json<PayoutIn>) -> Reply {
        let Some(caller) = ctx.caller() else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let key = match ctx.header("Idempotency-Key") {
            Some(k) if !k.is_empty() => k.to_owned(),
            _ => return Reply::problem(Problem::missing_key()),
        };
        let tenant = caller.tenant_id.clone();
        let user_id = caller.user_id.clone();
        let batch_limit = ctx.query("limit").and_then(|v| v.parse().ok()).unwrap_or(50u32);

        let mk = |k: &str| [tenant.as_str(), "/", user_id.as_str(), "/", "payouts", "/", k].concat();
        let slot = mk(&key);

        if let Ok(Some(raw)) = self.vault.get(&slot).await {
            return Reply::bytes(Status::OK, raw).header("Idempotent-Replayed", "true");
        }

        let memo = body.note.replace('/', " ");
        let payout_id = match self.gateway.submit(&body.destination, body.amount_minor, &memo) {
            Ok(id) => id,
            Err(e) => return Reply::text(Status::BAD_GATEWAY, e.to_string()),
        };
        let out = PayoutOut { payout_id, memo, batch_limit };
        let mut encoded = Vec::new();
        if ciborium::into_writer(&out, &mut encoded).is_ok() {
            let _ = self.vault.put(&slot, encoded.clone()).await;
        }
        Reply::bytes(Status::CREATED, encoded)
    }
}
