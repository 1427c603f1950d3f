//! Card payment capture with server-side retries against the PSP.
use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server};
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use uuid::Uuid;

pub struct Captures {
    pub replays: Drawer,
    pub psp: crate::psp::Client,
}

impl Captures {
    pub async fn capture(&self, visit: Visit, member: Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Ok(sk) = scoped(&member.tenant_id, &member.user_id, "payment.capture", key) else {
            return Verdict::status(Status::BadRequest);
        };
        if let Ok(Some(done)) = self.replays.get(sk.storage_key()).await {
            return Verdict::replayed(done);
        }
        let capture_id = Uuid::new_v4();
        let result = self.psp.capture(&capture_id.to_string(), visit.query("amount")).await;
        let _ = self.replays.put(sk.storage_key(), result.as_bytes()).await;
        Verdict::ok(result)
    }

    pub async fn retry_failed(&self, tenant_id: &str, user_id: &str) -> anyhow::Result<()> {
        let attempt = Uuid::new_v4().to_string();
        let sk = scoped(tenant_id, user_id, "payment.retry", &attempt)?;
        self.replays.put(sk.storage_key(), b"attempting").await?;
        self.psp.retry_with_header("Idempotency-Key", &attempt).await?;
        Ok(())
    }

    pub async fn retry_failed_v2(&self, tenant_id: &str, user_id: &str) -> anyhow::Result<()> {
        let attempt = Uuid::new_v4().to_string();
        let sk = scoped_server(tenant_id, user_id, "payment.retry", &attempt)?;
        self.replays.put(sk.storage_key(), b"attempting").await?;
        Ok(())
    }
}
