use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender};

use idem_scope::Namespace;

pub type Slot = (Namespace, String, String, String, String);

#[derive(Default)]
pub struct SlotKey {
    ns: Option<Namespace>,
    tenant_id: String,
    principal_id: String,
    route: String,
    key: String,
}

impl SlotKey {
    pub fn new(ns: Namespace) -> Self {
        SlotKey { ns: Some(ns), ..Default::default() }
    }
    pub fn tenant(mut self, tenant_id: &str) -> Self {
        self.tenant_id = tenant_id.to_owned();
        self
    }
    pub fn principal(mut self, principal_id: &str) -> Self {
        self.principal_id = principal_id.to_owned();
        self
    }
    pub fn route(mut self, route: &str) -> Self {
        self.route = route.to_owned();
        self
    }
    pub fn key(mut self, key: &str) -> Self {
        self.key = key.to_owned();
        self
    }
    pub fn finish(self) -> Slot {
        (self.ns.unwrap_or(Namespace::Client), self.tenant_id, self.principal_id, self.route, self.key)
    }
}

pub enum Command {
    /// A request from the public API.
    Client {
        tenant_id: String,
        user_id: String,
        /// The caller's `Idempotency-Key` header value.
        client_key: String,
        body: Vec<u8>,
        reply: Sender<Vec<u8>>,
    },
    /// Operator-triggered replay of a stored request.
    Replay { tenant_id: String, actor: String, replay_id: String, body: Vec<u8> },
    /// Scheduled reconciliation that re-sends yesterday's failures.
    Reconcile { tenant_id: String, actor: String, replay_id: String, body: Vec<u8> },
}

pub fn run(inbox: Receiver<Command>) {
    let mut slots: HashMap<Slot, Vec<u8>> = HashMap::new();
    for cmd in inbox {
        match cmd {
            Command::Client { tenant_id, user_id, client_key, body, reply } => {
                let slot = SlotKey::new(Namespace::Client).tenant(&tenant_id).principal(&user_id).route("transfers.create").key(&client_key).finish();
                let stored = slots.entry(slot).or_insert(body);
                let _ = reply.send(stored.clone());
            }
            Command::Replay { tenant_id, actor, replay_id, body } => {
                let slot = SlotKey::new(Namespace::Client).tenant(&tenant_id).principal(&actor).route("transfers.create").key(&replay_id).finish();
                slots.insert(slot, body);
            }
            Command::Reconcile { tenant_id, actor, replay_id, body } => {
                let slot = SlotKey::new(Namespace::Server).tenant(&tenant_id).principal(&actor).route("transfers.create").key(&replay_id).finish();
                slots.entry(slot).or_insert(body);
            }
        }
    }
}
