//! Autopay reminders: a nightly job e-mails customers three days before the
//! draft; the portal lets a customer acknowledge a reminder.

use std::time::Duration;

use aquifer::register::Register;
use aquifer::tank::Tank;
use idem_scope::{scoped, ScopeError, ScopedKey};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use tokio::task::JoinHandle;
use ulid::Ulid;

pub async fn acknowledge(intake: Intake, who: Customer, reminders: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&who.tenant_id, &who.user_id, "autopay-reminder", key)?;
    if let Some(prev) = reminders.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let out = Outflow::status(Code::OK, "acknowledged");
    reminders.put(slot.storage_key(), &out).await?;
    Ok(out)
}

fn run_slot(acct: &crate::billing::AutopayAccount, run: Ulid) -> Result<ScopedKey, ScopeError> {
    scoped(&acct.tenant_id, &acct.user_id, "autopay-reminder", &run.to_string())
}

pub fn spawn_nightly(reminders: Tank, runs: Register, mailer: crate::mail::Mailer) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(86_400));
        loop {
            tick.tick().await;
            let run = Ulid::new();
            if runs.mark_in_progress(&run.to_string()).await.is_err() {
                continue;
            }
            let due = match crate::billing::autopay().due_in_days(3).await {
                Ok(due) => due,
                Err(e) => {
                    tracing::warn!(error = %e, "autopay due list unavailable");
                    continue;
                }
            };
            for acct in due {
                let Ok(slot) = run_slot(&acct, run) else { continue };
                if reminders.exists(slot.storage_key()).await.unwrap_or(false) {
                    continue;
                }
                let sent = mailer
                    .message(&acct.email, "Your autopay draft is in 3 days")
                    .header("Idempotency-Key", &format!("{run}-{}", acct.user_id))
                    .send()
                    .await;
                if sent.is_ok() {
                    let _ = reminders.put(slot.storage_key(), b"sent").await;
                }
            }
            let _ = runs.mark_done(&run.to_string()).await;
        }
    })
}
