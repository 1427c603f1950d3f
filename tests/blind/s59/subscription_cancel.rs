use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use idem_scope::Problem;
use serde::Deserialize;
use sluice::kv::Bucket;

use crate::billing::{cancel_subscription, verify_billing_signature};

#[derive(Deserialize)]
struct BillingEvent {
    tenant_id: String,
    user_id: String,
    subscription_id: String,
    kind: String,
}

fn replay_slot(tenant_id: &str, user_id: &str, route: &str, key: &str) -> String {
    format!("{tenant_id}/{user_id}/{route}/{key}")
}

pub struct Subscriptions {
    replays: Bucket,
}

impl Subscriptions {
    pub async fn cancel(&self, ctx: Ctx, caller: Caller, subscription_id: String) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let slot = replay_slot(&caller.tenant_id, &caller.user_id, "subscriptions.cancel", client_key);
        if let Ok(Some(prev)) = self.replays.get::<Vec<u8>>(&slot).await {
            return Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true");
        }
        let out = cancel_subscription(&caller.tenant_id, &subscription_id).await;
        let _ = self.replays.put(&slot, &out).await;
        Reply::bytes(Status::OK, out)
    }

    /// Billing provider webhook; the provider retries a delivery until it gets a 2xx.
    pub async fn billing_webhook(&self, ctx: Ctx) -> Reply {
        let Some(signature) = ctx.header("X-Billing-Signature") else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let signature = signature.trim_start_matches("sha256=");
        if !verify_billing_signature(signature, ctx.raw_body()) {
            return Reply::status(Status::UNAUTHORIZED);
        }
        let Some(delivery_id) = ctx.header("X-Billing-Delivery") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Ok(event) = serde_json::from_slice::<BillingEvent>(ctx.raw_body()) else {
            return Reply::status(Status::NO_CONTENT);
        };
        if event.kind != "subscription.cancel_requested" {
            return Reply::status(Status::NO_CONTENT);
        }
        let slot = format!("{}/{}/{}/{}", event.tenant_id, event.user_id, "subscriptions.cancel", delivery_id);
        if self.replays.get::<Vec<u8>>(&slot).await.ok().flatten().is_none() {
            let out = cancel_subscription(&event.tenant_id, &event.subscription_id).await;
            let _ = self.replays.put(&slot, &out).await;
        }
        Reply::status(Status::NO_CONTENT)
    }
}
