use std::collections::HashMap;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use idem_scope::{scoped, scoped_server, ScopeError, ScopedKey};

pub enum Cmd {
    Submit { tenant_id: String, user_id: String, client_key: String, amount_minor: i64, reply: Sender<Vec<u8>> },
    Redeliver { tenant_id: String, user_id: String, delivery_id: String, amount_minor: i64 },
    Reconcile { tenant_id: String, user_id: String, event_id: String },
}

pub fn submit_from_http(tx: &Sender<Cmd>, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, amount_minor: i64) -> Option<Vec<u8>> {
    let client_key = headers.get("Idempotency-Key")?.to_str().ok()?.to_owned();
    let (reply, rx) = mpsc::channel();
    tx.send(Cmd::Submit { tenant_id: tenant_id.into(), user_id: user_id.into(), client_key, amount_minor, reply }).ok()?;
    rx.recv().ok()
}

fn execute(seen: &mut HashMap<String, Vec<u8>>, key: Result<ScopedKey, ScopeError>, amount_minor: i64) -> Vec<u8> {
    let Ok(key) = key else {
        return b"{\"error\":\"invalid scope\"}".to_vec();
    };
    seen.entry(key.storage_key().to_owned())
        .or_insert_with(|| format!("{{\"paid_minor\":{amount_minor}}}").into_bytes())
        .clone()
}

pub fn spawn() -> Sender<Cmd> {
    let (tx, rx): (Sender<Cmd>, Receiver<Cmd>) = mpsc::channel();
    thread::Builder::new()
        .name("payout-actor".into())
        .spawn(move || {
            let mut seen: HashMap<String, Vec<u8>> = HashMap::new();
            for cmd in rx {
                match cmd {
                    Cmd::Submit { tenant_id, user_id, client_key, amount_minor, reply } => {
                        let out = execute(&mut seen, scoped(&tenant_id, &user_id, "payouts.create", &client_key), amount_minor);
                        let _ = reply.send(out);
                    }
                    Cmd::Redeliver { tenant_id, user_id, delivery_id, amount_minor } => {
                        execute(&mut seen, scoped(&tenant_id, &user_id, "payouts.create", &delivery_id), amount_minor);
                    }
                    Cmd::Reconcile { tenant_id, user_id, event_id } => {
                        execute(&mut seen, scoped_server(&tenant_id, &user_id, "payouts.reconcile", &event_id), 0);
                    }
                }
            }
        })
        .expect("spawn payout actor");
    tx
}
