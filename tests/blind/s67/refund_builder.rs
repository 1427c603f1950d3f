use std::fmt::Write;

use dunlin::kv::Kv;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

/// Assembles the storage slot for a refund attempt.
pub struct RefundSlot {
    buf: String,
}

impl RefundSlot {
    pub fn for_caller(caller: &Caller) -> Self {
        let mut buf = String::with_capacity(96);
        let _ = write!(buf, "{}\u{1f}{}\u{1f}{}", caller.tenant_id, caller.user_id, "refund");
        RefundSlot { buf }
    }

    pub fn attempt(mut self, attempt: &str) -> Self {
        let _ = write!(self.buf, "\u{1f}{}", attempt);
        self
    }

    pub fn finish(self) -> String {
        self.buf
    }
}

pub async fn refund(ctx: Ctx, caller: Caller, store: &Kv, notes: &Kv) -> Reply {
    let attempt = match ctx.header("idempotency-key") {
        Some(v) => v.to_owned(),
        None => return Reply::status(Status::BAD_REQUEST),
    };
    let slot = RefundSlot::for_caller(&caller).attempt(&attempt).finish();
    if let Ok(Some(prev)) = store.get(&slot).await {
        return Reply::bytes(Status::OK, prev);
    }
    let refund_id = crate::refunds::issue(&caller, ctx.body()).await;
    let note_slot = format!("refund-note:{}", refund_id);
    notes.put(&note_slot, ctx.body().to_vec()).await.ok();
    store.put(&slot, refund_id.as_bytes().to_vec()).await.ok();
    Reply::created(&format!("/v1/refunds/{}", refund_id))
}
