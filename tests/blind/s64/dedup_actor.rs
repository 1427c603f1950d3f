use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender};
use std::thread;

use idem_scope::scoped;

pub enum Command {
    Client {
        tenant_id: String,
        user_id: String,
        route: String,
        headers: Vec<(String, String)>,
        reply: Sender<bool>,
    },
    Event {
        tenant_id: String,
        user_id: String,
        route: String,
        event_id: String,
        reply: Sender<bool>,
    },
    Replay {
        tenant_id: String,
        user_id: String,
        route: String,
        delivery_id: String,
        reply: Sender<bool>,
    },
}

pub fn spawn(rx: Receiver<Command>) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut seen: HashMap<String, u64> = HashMap::new();
        let mut tick = 0u64;
        for cmd in rx {
            tick += 1;
            match cmd {
                Command::Client { tenant_id, user_id, route, headers, reply } => {
                    let key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.clone());
                    let Some(key) = key else {
                        let _ = reply.send(false);
                        continue;
                    };
                    let Ok(sk) = scoped(&tenant_id, &user_id, &route, &key) else {
                        let _ = reply.send(false);
                        continue;
                    };
                    let slot = format!("req/{}", sk.storage_key());
                    let _ = reply.send(seen.insert(slot, tick).is_none());
                }
                Command::Event { tenant_id, user_id, route, event_id, reply } => {
                    let Ok(sk) = scoped(&tenant_id, &user_id, &route, &event_id) else {
                        let _ = reply.send(false);
                        continue;
                    };
                    let slot = format!("evt/{}", sk.storage_key());
                    let _ = reply.send(seen.insert(slot, tick).is_none());
                }
                Command::Replay { tenant_id, user_id, route, delivery_id, reply } => {
                    let Ok(sk) = scoped(&tenant_id, &user_id, &route, &delivery_id) else {
                        let _ = reply.send(false);
                        continue;
                    };
                    let slot = format!("req/{}", sk.storage_key());
                    let _ = reply.send(seen.insert(slot, tick).is_none());
                }
            }
        }
    })
}
