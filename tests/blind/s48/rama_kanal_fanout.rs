use heed::types::{Bytes, Str};
use heed::{Database, Env};
use idem_scope::{scoped, IdempotencyKey, Namespace};
use kanal::{AsyncReceiver, AsyncSender};
use rama::http::{HeaderMap, StatusCode};
use std::sync::Arc;
use ulid::Ulid;

#[derive(Clone)]
pub struct Store {
    env: Arc<Env>,
    db: Database<Str, Bytes>,
}

pub struct Fanout {
    pub org_id: String,
    pub user_id: String,
    pub recipients: Vec<String>,
}

pub struct Part {
    pub org_id: String,
    pub user_id: String,
    pub recipient: String,
}

#[derive(serde::Serialize)]
struct PartKey<'a> {
    ns: Namespace,
    org_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    id: String,
}

impl Store {
    fn has(&self, k: &str) -> bool {
        self.env.read_txn().map(|r| matches!(self.db.get(&r, k), Ok(Some(_)))).unwrap_or(false)
    }
    fn put(&self, k: &str, v: &[u8]) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.db.put(&mut w, k, v)?;
        w.commit()
    }
}

pub async fn accept(store: Store, tx: AsyncSender<Part>, headers: HeaderMap, f: Fanout) -> Result<(), StatusCode> {
    let raw = headers.get("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let ck = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|_| StatusCode::BAD_REQUEST)?;
    let key = scoped(&f.org_id, &f.user_id, "messages.fanout", ck.as_str()).map_err(|_| StatusCode::BAD_REQUEST)?;
    if store.has(key.storage_key()) {
        return Ok(());
    }
    for r in f.recipients {
        tx.send(Part { org_id: f.org_id.clone(), user_id: f.user_id.clone(), recipient: r }).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    }
    store.put(key.storage_key(), b"accepted").map_err(|_| StatusCode::SERVICE_UNAVAILABLE)
}

pub async fn deliver(store: Store, rx: AsyncReceiver<Part>) {
    while let Ok(part) = rx.recv().await {
        let attempt = Ulid::new().to_string();
        let part_key = scoped(&part.org_id, &part.user_id, "messages.fanout", &attempt);
        let Ok(part_key) = part_key else { continue };
        let trace = PartKey { ns: Namespace::Server, org_id: &part.org_id, user_id: &part.user_id, route: "messages.deliver", id: Ulid::new().to_string() };
        let trace_key = serde_json::to_string(&trace).unwrap_or_default();
        if store.has(part_key.storage_key()) || store.has(&trace_key) {
            continue;
        }
        let _ = store.put(part_key.storage_key(), part.recipient.as_bytes());
        let _ = store.put(&trace_key, b"sent");
    }
}
