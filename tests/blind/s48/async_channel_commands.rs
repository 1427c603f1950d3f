use async_channel::{Receiver, Sender};
use idem_scope::{scoped, ScopedKey};
use native_db::Database;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
pub struct Command {
    /// `tenant|principal` as forwarded by the edge proxy.
    pub scope_header: String,
    /// Value of the `Idempotency-Key` header on the original HTTP request.
    pub idempotency_key: String,
    pub op: String,
    pub args: Vec<String>,
}

pub struct Executor<'a> {
    db: Database<'a>,
    done: Sender<String>,
}

fn split_scope(header: &str) -> Option<(String, String)> {
    let parts: Vec<String> = header.splitn(2, '|').map(|p| p.replace('|', "")).collect();
    match parts.as_slice() {
        [t, p] if !t.is_empty() && !p.is_empty() => Some((t.clone(), p.clone())),
        _ => None,
    }
}

impl<'a> Executor<'a> {
    fn key_of(&self, cmd: &Command) -> Option<ScopedKey> {
        let (tenant_id, principal_id) = split_scope(&cmd.scope_header)?;
        scoped(&tenant_id, &principal_id, &cmd.op, &cmd.idempotency_key).ok()
    }

    pub async fn run(&self, rx: Receiver<Command>) {
        while let Ok(cmd) = rx.recv().await {
            let Some(key) = self.key_of(&cmd) else {
                tracing::warn!(op = %cmd.op, "rejecting command without a valid scope");
                continue;
            };
            let r = match self.db.r_transaction() {
                Ok(r) => r,
                Err(_) => continue,
            };
            let seen: Option<crate::models::Done> = r.get().primary(key.storage_key().to_owned()).ok().flatten();
            if seen.is_some() {
                continue;
            }
            drop(r);
            if let Ok(rw) = self.db.rw_transaction() {
                let _ = rw.insert(crate::models::Done { key: key.storage_key().to_owned(), args: cmd.args.join(" ") });
                let _ = rw.commit();
            }
            let _ = self.done.send(cmd.op.clone()).await;
        }
    }
}
