use base64ct::{Base64, Encoding};
use brindle::auth::Caller;
use brindle::{Ctx, Json, Reply, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use sluice::kv::Bucket;

use crate::refunds::{execute_refund, RefundCommand};

/// Body Google Pub/Sub POSTs to a push subscription endpoint.
#[derive(Deserialize)]
pub struct PushEnvelope {
    pub message: PushMessage,
    pub subscription: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PushMessage {
    pub data: String,
    pub message_id: String,
    pub publish_time: String,
}

#[derive(Deserialize)]
struct QueuedRefund {
    tenant_id: String,
    user_id: String,
    command: RefundCommand,
}

pub struct Refunds {
    replays: Bucket,
}

impl Refunds {
    pub async fn refund_http(&self, ctx: Ctx, caller: Caller, Json(cmd): Json<RefundCommand>) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "refunds.create", client_key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.replays.get::<Vec<u8>>(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true");
        }
        let out = execute_refund(&caller.tenant_id, &caller.user_id, &cmd).await;
        let _ = self.replays.put(sk.storage_key(), &out).await;
        Reply::bytes(Status::CREATED, out)
    }

    /// Refunds queued by the support console arrive through Pub/Sub push.
    pub async fn refund_push(&self, Json(push): Json<PushEnvelope>) -> Reply {
        let Ok(raw) = Base64::decode_vec(&push.message.data) else {
            return Reply::status(Status::NO_CONTENT);
        };
        let Ok(queued) = serde_json::from_slice::<QueuedRefund>(&raw) else {
            tracing::warn!(message_id = %push.message.message_id, "dropping undecodable refund");
            return Reply::status(Status::NO_CONTENT);
        };
        let sk = match scoped(&queued.tenant_id, &queued.user_id, "refunds.create", &push.message.message_id) {
            Ok(k) => k,
            Err(_) => return Reply::status(Status::NO_CONTENT),
        };
        if self.replays.get::<Vec<u8>>(sk.storage_key()).await.ok().flatten().is_some() {
            return Reply::status(Status::NO_CONTENT);
        }
        let out = execute_refund(&queued.tenant_id, &queued.user_id, &queued.command).await;
        let _ = self.replays.put(sk.storage_key(), &out).await;
        Reply::status(Status::NO_CONTENT)
    }
}
