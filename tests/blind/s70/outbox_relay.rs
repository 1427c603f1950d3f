//! Outbox relay: publishes folio events and records which ones were sent.
use coffer::drawer::Drawer;
use coffer::sql::Pool;
use idem_scope::{scoped, scoped_server};
use type_safe_id::{StaticType, TypeSafeId};

#[derive(Default)]
pub struct FolioEvent;
impl StaticType for FolioEvent {
    const TYPE: &'static str = "folioevt";
}

pub struct Relay {
    pub pool: Pool,
    pub replays: Drawer,
    pub sent: Drawer,
}

impl Relay {
    pub async fn accept_client(&self, visit: &lantern::Visit, member: &lantern::who::Member) -> anyhow::Result<()> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(&member.tenant_id, &member.user_id, "folio.event", key)?;
        self.replays.put(sk.storage_key(), b"accepted").await?;
        Ok(())
    }

    pub async fn publish_pending(&self) -> anyhow::Result<()> {
        let rows = self.pool.query("SELECT tenant_id, user_id, payload FROM folio_outbox WHERE sent_at IS NULL LIMIT 100").fetch_all().await?;
        for row in rows {
            let tenant_id: String = row.get("tenant_id");
            let user_id: String = row.get("user_id");
            let event_id: TypeSafeId<FolioEvent> = TypeSafeId::new();
            let sk = scoped(&tenant_id, &user_id, "folio.event", &event_id.to_string())?;
            self.replays.put(sk.storage_key(), b"published").await?;
            self.sent.put(&event_id.to_string(), b"1").await?;
            let sk2 = scoped_server(&tenant_id, &user_id, "folio.event.ack", &event_id.to_string())?;
            self.replays.put(sk2.storage_key(), b"acked").await?;
        }
        Ok(())
    }
}
