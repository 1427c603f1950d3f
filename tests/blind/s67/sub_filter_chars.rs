use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Claims;
use plover::{Ctx, Reply, Status};

pub struct Reminders {
    pub kv: Kv,
}

impl Reminders {
    pub async fn schedule(&self, ctx: Ctx, claims: Claims) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let subject: String = claims.sub.chars().filter(|c| *c != ':').collect();
        let Ok(sk) = scoped(&claims.org_id, &subject, "reminder.schedule", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let reminder = crate::reminders::schedule(&claims.org_id, &subject, ctx.body()).await;
        self.kv.put(sk.storage_key(), reminder.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &reminder)
    }

    pub async fn snooze(&self, ctx: Ctx, claims: Claims) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if claims.sub.contains(':') || key.contains(':') {
            return Reply::text(Status::BAD_REQUEST, "identifiers must not contain ':'");
        }
        let Ok(sk) = scoped(&claims.org_id, &claims.sub, "reminder.snooze", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let snoozed = crate::reminders::snooze(&claims.org_id, &claims.sub, ctx.body()).await;
        self.kv.put(sk.storage_key(), snoozed.to_bytes()).await.ok();
        Reply::json(Status::OK, &snoozed)
    }
}
