use std::time::Duration;

use azure_storage_queues::{operations::Message, QueueClient};
use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use idem_scope::{scoped, ClaimGuard, Problem, ScopedKey};
use serde::Deserialize;
use sluice::kv::Bucket;

use crate::reminders::send_reminder;

#[derive(Deserialize)]
struct ReminderJob {
    tenant_id: String,
    user_id: String,
    invoice_id: String,
}

pub struct Reminders {
    queue: QueueClient,
    results: Bucket,
}

impl Reminders {
    pub async fn remind_now(&self, ctx: Ctx, caller: Caller, invoice_id: String) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "invoices.remind", client_key) else {
            return Reply::problem(Problem::invalid_key("bad key"));
        };
        if self.results.exists(sk.storage_key()).await.unwrap_or(false) {
            return Reply::status(Status::OK).header("Idempotent-Replayed", "true");
        }
        if self.results.claim(sk.storage_key(), Duration::from_secs(30)).await.is_err() {
            return Reply::problem(Problem::in_progress(client_key));
        }
        let results = self.results.clone();
        let held = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move { results.release(&held).await });
        });
        if let Err(e) = send_reminder(&caller.tenant_id, &invoice_id).await {
            return Reply::status(Status::BAD_GATEWAY).text(e.to_string());
        }
        let _ = self.results.complete(sk.storage_key(), &"sent").await;
        guard.complete();
        Reply::status(Status::ACCEPTED)
    }

    pub async fn drain(&self) -> azure_core::Result<usize> {
        let page = self.queue.get_messages().number_of_messages(32).visibility_timeout(Duration::from_secs(90)).await?;
        let jobs: Vec<(Message, ReminderJob, ScopedKey)> = page
            .messages
            .into_iter()
            .filter_map(|m| serde_json::from_str::<ReminderJob>(&m.message_text).ok().map(|j| (m, j)))
            .filter_map(|(m, j)| scoped(&j.tenant_id, &j.user_id, "invoices.remind", &m.message_id).ok().map(|k| (m, j, k)))
            .collect();
        let mut sent = 0;
        for (message, job, sk) in jobs {
            if !self.results.exists(sk.storage_key()).await.unwrap_or(false) && send_reminder(&job.tenant_id, &job.invoice_id).await.is_ok() {
                let _ = self.results.put(sk.storage_key(), &"sent").await;
                sent += 1;
            }
            self.queue.pop_receipt_client(message).delete().await?;
        }
        Ok(sent)
    }
}
