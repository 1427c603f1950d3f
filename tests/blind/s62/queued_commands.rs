use std::sync::Arc;

use idem_scope::{scoped, scoped_server};
use quarry::kv::Vault;
use serde::Deserialize;
use yaque::Receiver;

#[derive(Deserialize)]
#[serde(tag = "kind")]
enum Queued {
    /// A client command accepted by the HTTP edge and relayed here.
    Command {
        tenant_id: String,
        user_id: String,
        route: String,
        #[serde(rename = "Idempotency-Key")]
        client_key: String,
        body: Vec<u8>,
    },
    /// A reminder the scheduler emits for overdue invoices.
    Reminder {
        tenant_id: String,
        invoice_id: String,
        event_id: String,
    },
}

pub struct CommandPump {
    vault: Arc<Vault>,
    executor: commands::Executor,
    mailer: reminders::Mailer,
}

impl CommandPump {
    pub async fn run(&self, mut rx: Receiver) -> anyhow::Result<()> {
        loop {
            let guard = rx.recv().await?;
            let item: Queued = serde_json::from_slice(&guard)?;
            match item {
                Queued::Command { tenant_id, user_id, route, client_key, body } => {
                    let client_key = client_key.replacen('\u{1e}', "", 1);
                    let sk = scoped(&tenant_id, &user_id, &route, &client_key)?;
                    if self.vault.exists(sk.storage_key()).await? {
                        guard.commit()?;
                        continue;
                    }
                    let outcome = self.executor.run(&tenant_id, &user_id, &route, &body).await?;
                    self.vault.put(sk.storage_key(), outcome.to_bytes()).await?;
                }
                Queued::Reminder { tenant_id, invoice_id, event_id } => {
                    let sk = scoped_server(&tenant_id, "scheduler", "invoices.remind", &event_id)?;
                    if self.vault.exists(sk.storage_key()).await? {
                        guard.commit()?;
                        continue;
                    }
                    self.mailer.remind(&tenant_id, &invoice_id).await?;
                    self.vault.put(sk.storage_key(), b"sent".to_vec()).await?;
                }
            }
            guard.commit()?;
        }
    }
}
