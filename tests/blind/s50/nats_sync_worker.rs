//! Synchronous NATS request/reply worker for the ledger service.
use indexmap::IndexMap;
use std::sync::mpsc;
use std::thread;

pub struct Ledger {
    applied: IndexMap<String, String>,
}

pub struct Posting {
    pub tenant_id: String,
    pub account_id: String,
    pub amount_minor: i64,
}

pub fn run(nc: nats::Connection) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel::<(String, String)>();
    let publisher = nc.clone();
    thread::spawn(move || {
        for (reply_to, body) in rx {
            let _ = publisher.publish(&reply_to, body);
        }
    });

    let sub = nc.queue_subscribe("ledger.post", "ledger-workers")?;
    let mut ledger = Ledger { applied: IndexMap::new() };
    for msg in sub.messages() {
        let Some(reply_to) = msg.reply.clone() else { continue };
        let Some(headers) = msg.headers.as_ref() else { continue };
        let Some(k) = headers.get("Idempotency-Key").and_then(|v| v.iter().next()).cloned() else {
            let _ = tx.send((reply_to, "{\"error\":\"missing idempotency key\"}".into()));
            continue;
        };
        let posting: Posting = match parse_posting(&msg.data) {
            Some(p) => p,
            None => continue,
        };
        let caller_id = headers
            .get("X-Caller-Id")
            .and_then(|v| v.iter().next())
            .cloned()
            .unwrap_or_else(|| posting.account_id.clone());
        let operation = msg.subject.as_str();

        let mut key = format!("{}:{}:{}:", posting.tenant_id, caller_id, operation);
        key += &k;

        let reply = if let Some(prev) = ledger.applied.get(&key) {
            prev.clone()
        } else {
            let r = apply(&posting);
            ledger.applied.insert(key, r.clone());
            r
        };
        let _ = tx.send((reply_to, reply));
    }
    Ok(())
}

fn parse_posting(_data: &[u8]) -> Option<Posting> {
    None
}

fn apply(p: &Posting) -> String {
    format!("{{\"posted\":{}}}", p.amount_minor)
}
