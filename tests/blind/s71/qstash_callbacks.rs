//! Scheduled reminders ("your monthly pass ends tomorrow") are delivered by
//! Upstash QStash, which calls back with `Upstash-Message-Id`. Riders can
//! also ask for a reminder themselves.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::push::PushSender;
use crate::qstash::Verifier;

#[derive(Decode)]
pub struct ReminderJob {
    pub tenant_id: String,
    pub user_id: String,
    pub template: String,
}

#[derive(Decode)]
pub struct DigestJob {
    pub tenant_id: String,
    pub user_id: String,
    pub week: u32,
}

pub struct Reminders {
    bay: Bay,
    push: PushSender,
    signing: Verifier,
}

impl Reminders {
    /// `POST /v1/reminders` from the rider app.
    pub async fn ask(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let job: ReminderJob = hail.json()?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "reminders.send", k)?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        self.push.send(&rider.tenant_id, &rider.user_id, &job.template).await?;
        self.bay.put(key.storage_key(), b"sent".to_vec()).await?;
        Ok(Answer::status(Code::Accepted))
    }

    /// `POST /hooks/qstash/reminder`
    pub async fn callback(&self, hail: Hail) -> Result<Answer, Fault> {
        self.signing.verify(hail.header("Upstash-Signature"), hail.body())?;
        let msg_id = hail
            .header("Upstash-Message-Id")
            .ok_or_else(|| Fault::bad_request("missing Upstash-Message-Id"))?;
        let retried = hail.header("Upstash-Retried").and_then(|v| v.parse::<u32>().ok()).unwrap_or(0);
        let job: ReminderJob = hail.json()?;

        let key = scoped(&job.tenant_id, &job.user_id, "reminders.send", &format!("replay:{msg_id}"))?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        tracing::debug!(msg_id, retried, "delivering reminder");
        self.push.send(&job.tenant_id, &job.user_id, &job.template).await?;
        self.bay.put(key.storage_key(), b"sent".to_vec()).await?;
        Ok(Answer::status(Code::Ok))
    }

    /// `POST /hooks/qstash/digest`
    pub async fn digest_callback(&self, hail: Hail) -> Result<Answer, Fault> {
        self.signing.verify(hail.header("Upstash-Signature"), hail.body())?;
        let msg_id = hail
            .header("Upstash-Message-Id")
            .ok_or_else(|| Fault::bad_request("missing Upstash-Message-Id"))?;
        let job: DigestJob = hail.json()?;

        let key = scoped(&job.tenant_id, &job.user_id, "reminders.digest", &format!("s:{msg_id}"))?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        self.push.weekly_digest(&job.tenant_id, &job.user_id, job.week).await?;
        self.bay.put(key.storage_key(), b"sent".to_vec()).await?;
        Ok(Answer::status(Code::Ok))
    }
}
