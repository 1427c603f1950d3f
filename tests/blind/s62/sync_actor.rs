use idem_scope::{scoped, scoped_server, Namespace, ScopedKey};
use imbl::HashMap;
use tokio::sync::{mpsc, oneshot};

pub enum Cmd {
    /// A request from the public contacts API.
    Client {
        tenant_id: String,
        user_id: String,
        client_key: String,
        payload: Vec<u8>,
        reply: oneshot::Sender<Vec<u8>>,
    },
    /// A change pushed by the upstream CRM.
    Upstream {
        tenant_id: String,
        actor: String,
        event_id: String,
        payload: Vec<u8>,
    },
    /// A correction produced by the nightly reconciler.
    Reconciled { key: ScopedKey, payload: Vec<u8> },
}

pub struct SyncActor {
    seen: HashMap<String, Vec<u8>>,
    crm: crm::Mirror,
}

impl SyncActor {
    pub fn start(crm: crm::Mirror) -> mpsc::Sender<Cmd> {
        let (tx, mut rx) = mpsc::channel(256);
        tokio::spawn(async move {
            let mut actor = SyncActor { seen: HashMap::new(), crm };
            while let Some(cmd) = rx.recv().await {
                actor.handle(cmd).await;
            }
        });
        tx
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Client { tenant_id, user_id, client_key, payload, reply } => {
                let Ok(sk) = scoped(&tenant_id, &user_id, "contacts.upsert", &client_key) else {
                    let _ = reply.send(b"invalid key".to_vec());
                    return;
                };
                if let Some(prev) = self.seen.get(sk.storage_key()) {
                    let _ = reply.send(prev.clone());
                    return;
                }
                let out = self.crm.upsert(&tenant_id, &payload).await;
                self.seen.insert(sk.storage_key().to_owned(), out.clone());
                let _ = reply.send(out);
            }
            Cmd::Upstream { tenant_id, actor, event_id, payload } => {
                let slot = format!("{}\u{0}{}\u{0}{}\u{0}{}", tenant_id, actor, "contacts.upsert", event_id);
                if self.seen.contains_key(&slot) {
                    return;
                }
                let out = self.crm.apply_remote(&tenant_id, &payload).await;
                self.seen.insert(slot, out);
            }
            Cmd::Reconciled { key, payload } => {
                debug_assert!(matches!(key.namespace(), Namespace::Server));
                let out = self.crm.apply_correction(&payload).await;
                self.seen.insert(key.storage_key().to_owned(), out);
            }
        }
    }
}

pub async fn send_correction(tx: &mpsc::Sender<Cmd>, tenant_id: &str, correction_id: &str, payload: Vec<u8>) {
    if let Ok(key) = scoped_server(tenant_id, "reconciler", "contacts.correct", correction_id) {
        let _ = tx.send(Cmd::Reconciled { key, payload }).await;
    }
}
