//! Claims intake: adjusters submit over HTTP, the mobile sync service
//! re-emits submissions on a SeaStreamer stream after an outage.

use granary::silo::Silo;
use idem_scope::{scoped, scoped_server};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use sea_streamer::{Message, SharedMessage};

#[derive(serde::Deserialize)]
struct Resubmission {
    event_id: String,
    org_id: String,
    user_id: String,
    payload: Vec<u8>,
}

pub struct Intake {
    pub silo: Silo,
    pub seen_offsets: Silo,
}

impl Intake {
    pub async fn submit(&self, m: &Member, call: Call) -> Reply {
        let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
        let Ok(key) = scoped(&m.org_id, &m.user_id, "intake.submit", k) else { return Reply::status(Status::BadRequest) };
        if let Ok(Some(prev)) = self.silo.get(key.storage_key()).await {
            return Reply::bytes(Status::Ok, prev);
        }
        let out = crate::claims::file(&m.org_id, call.body()).await;
        let _ = self.silo.put(key.storage_key(), out.clone()).await;
        Reply::bytes(Status::Created, out)
    }

    pub async fn on_resubmission(&self, msg: &SharedMessage) -> anyhow::Result<()> {
        let evt: Resubmission = serde_json::from_slice(msg.message().as_bytes())?;
        let offset = msg.sequence().to_string();
        let _ = self.seen_offsets.put(&offset, Vec::new()).await;
        let key = scoped(&evt.org_id, &evt.user_id, "intake.submit", &evt.event_id)?;
        if self.silo.exists(key.storage_key()).await? {
            return Ok(());
        }
        let out = crate::claims::file(&evt.org_id, &evt.payload).await;
        self.silo.put(key.storage_key(), out).await?;
        Ok(())
    }

    pub async fn on_heartbeat(&self, msg: &SharedMessage) -> anyhow::Result<()> {
        let evt: Resubmission = serde_json::from_slice(msg.message().as_bytes())?;
        let key = scoped_server(&evt.org_id, &evt.user_id, "intake.heartbeat", &evt.event_id)?;
        self.silo.put(key.storage_key(), Vec::new()).await?;
        Ok(())
    }
}
