//! Vaccine and check-up reminders: a queued job per reminder, and a desk
//! button that sends one immediately.

use std::sync::OnceLock;

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use silage::lease::Leases;
use sqlxmq::{job, CurrentJob};
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback};

pub struct Reminders {
    pub idem: Bunker,
    pub leases: Leases,
    pub sms: crate::sms::SmsSender,
}

static REMINDERS: OnceLock<Reminders> = OnceLock::new();

fn reminders() -> &'static Reminders {
    REMINDERS.get().expect("reminders initialised at startup")
}

#[derive(Deserialize)]
pub struct ReminderJob {
    pub org_id: String,
    pub user_id: String,
    pub pet_id: String,
    pub phone: String,
    pub text: String,
}

#[job(channel_name = "reminders")]
pub async fn send_reminder(mut current_job: CurrentJob) -> Result<(), Box<dyn std::error::Error + Send + Sync + 'static>> {
    let st = reminders();
    let Some(job) = current_job.json::<ReminderJob>()? else {
        current_job.complete().await?;
        return Ok(());
    };
    let key = scoped(&job.org_id, &job.user_id, "/jobs/reminders", &current_job.id().to_string())?;
    if st.idem.get(key.storage_key()).await?.is_none() {
        let sid = st.sms.send(&job.phone, &job.text).await?;
        st.idem.put(key.storage_key(), sid.into_bytes()).await?;
    }
    current_job.complete().await?;
    Ok(())
}

/// Nightly sweep that enqueues due reminders; one runner at a time.
pub async fn enqueue_due(pool: &sqlxmq::PgPool) -> Result<usize, Fault> {
    let st = reminders();
    let Some(lease) = st.leases.acquire("reminders:nightly-sweep", std::time::Duration::from_secs(600)).await? else {
        return Ok(0);
    };
    let due = crate::sms::due_reminders(pool).await?;
    for r in &due {
        send_reminder.builder().set_json(r)?.spawn(pool).await?;
    }
    st.leases.release(lease).await?;
    Ok(due.len())
}

#[derive(Deserialize)]
pub struct SendNowIn {
    pub pet_id: String,
    pub phone: String,
    pub text: String,
}

/// `POST /v1/reminders/send-now`
pub async fn send_now(inb: Inbound, staff: Staff, JsonIn(req): JsonIn<SendNowIn>) -> Result<Sendback, Fault> {
    let st = reminders();
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/reminders/send-now", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let sid = st.sms.send(&req.phone, &req.text).await?;
    st.idem.put(key.storage_key(), sid.clone().into_bytes()).await?;
    Ok(Sendback::raw_json(Code::Accepted, sid.into_bytes()))
}
