//! Rebooking after overbooking: guests confirm over HTTP, the yield engine emits RocketMQ events.
use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server, Namespace};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use rocketmq::model::message::MessageView;
use serde::Deserialize;

#[derive(Deserialize)]
struct WalkEvent {
    tenant_id: String,
    user_id: String,
    reservation: String,
}

pub struct Rebooker {
    pub replays: Drawer,
}

impl Rebooker {
    pub async fn confirm(&self, visit: Visit, member: Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "rebook.confirm", key) else {
            return Verdict::status(Status::BadRequest);
        };
        let _ = self.replays.put(sk.storage_key(), b"confirmed").await;
        Verdict::status(Status::Accepted)
    }

    pub async fn on_walk(&self, msg: &MessageView) -> anyhow::Result<()> {
        let ev: WalkEvent = serde_json::from_slice(msg.body())?;
        let msg_id = msg.message_id().to_string();
        let sk = scoped(&ev.tenant_id, &ev.user_id, "rebook.walk", &msg_id)?;
        if self.replays.exists(sk.storage_key()).await? {
            return Ok(());
        }
        crate::yield_engine::rebook(&ev.tenant_id, &ev.reservation).await?;
        self.replays.put(sk.storage_key(), b"rebooked").await?;
        let server = scoped_server(&ev.tenant_id, &ev.user_id, "rebook.walk.notice", &msg_id)?;
        debug_assert_eq!(server.namespace(), Namespace::Server);
        self.replays.put(server.storage_key(), b"noticed").await?;
        Ok(())
    }
}
