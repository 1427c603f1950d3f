//! Pre-show reminders: patrons schedule an SMS reminder through the API; the
//! sweeper turns due reminders into jobs, and workers send them.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::callboard::CallBoard;
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

use crate::queue::Delivery;

const ROUTE: &str = "send_reminder";
const KEEP: Duration = Duration::from_secs(2 * 86_400);

#[derive(Deserialize)]
pub struct ReminderJob {
    pub job_id: String,
    pub org_id: String,
    pub user_id: String,
    pub performance_id: String,
    pub phone: String,
}

pub struct Reminders {
    pub batten: Batten,
    pub callboard: CallBoard,
    pub sms: crate::sms::Sender,
    pub diary: crate::reminders::Diary,
}

pub async fn schedule_reminder(cue: Cue, patron: Patron, house: House<Reminders>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let sk = scoped(&patron.org_id, &patron.user_id, ROUTE, key).map_err(Flub::bad_request)?;
    if let Some(previous) = house.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let performance = cue.param("performance").ok_or_else(|| Flub::not_found("performance"))?;
    let reminder = house.diary.add(&patron.org_id, &patron.user_id, performance).await?;
    house.batten.put(sk.storage_key(), reminder.to_bytes(), KEEP).await?;
    Ok(Curtain::json(201, &reminder))
}

pub async fn work(delivery: Delivery<ReminderJob>, house: &Reminders) -> Result<(), Flub> {
    let job = delivery.payload();
    let slot = format!("{}:{}:{}:job:{}", job.org_id, job.user_id, ROUTE, job.job_id);
    if house.batten.exists(&slot).await? {
        delivery.ack().await?;
        return Ok(());
    }
    house.sms.send(&job.phone, &format!("Tonight: {}", job.performance_id)).await?;
    house.batten.put(&slot, b"sent".to_vec(), KEEP).await?;
    tracing::info!(job = %job.job_id, org = %job.org_id, "reminder sent");
    delivery.ack().await?;
    Ok(())
}

/// Runs on every node; the lease makes sure only one node sweeps at a time.
pub async fn sweep(house: &Reminders, queue: &crate::queue::Queue) -> Result<usize, Flub> {
    if !house.callboard.acquire("reminder-sweeper", Duration::from_secs(55)).await? {
        return Ok(0);
    }
    let due = house.diary.due_within(Duration::from_secs(3 * 3600)).await?;
    for reminder in &due {
        queue.push("reminders", reminder).await?;
    }
    house.callboard.release("reminder-sweeper").await?;
    Ok(due.len())
}
