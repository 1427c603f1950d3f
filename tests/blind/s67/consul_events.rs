use consul::event::{Event, UserEvent};
use consul::Client;
use dunlin::kv::Kv;
use idem_scope::{scoped, Namespace};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct FeatureFlags {
    pub kv: Kv,
    pub consul: Client,
}

impl FeatureFlags {
    pub async fn toggle(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else { return Reply::status(Status::BAD_REQUEST) };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "flag.toggle", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        debug_assert!(matches!(sk.namespace(), Namespace::Client));
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let flag = crate::flags::toggle(&caller, ctx.body()).await;
        self.kv.put(sk.storage_key(), flag.to_bytes()).await.ok();
        Reply::json(Status::OK, &flag)
    }

    pub async fn follow_events(&self) {
        let events: Vec<UserEvent> = self.consul.list("flag-toggle", None).map(|(e, _)| e).unwrap_or_default();
        for ev in events {
            let Some(payload) = ev.Payload.clone() else { continue };
            let (tenant_id, user_id) = crate::flags::owner_of(&payload);
            let event_id = ev.ID.clone();
            let Ok(sk) = scoped(&tenant_id, &user_id, "flag.toggle", &event_id) else { continue };
            if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                continue;
            }
            let flag = crate::flags::toggle_raw(&tenant_id, &user_id, &payload).await;
            self.kv.put(sk.storage_key(), flag.to_bytes()).await.ok();
        }
    }
}
