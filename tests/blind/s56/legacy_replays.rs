use std::sync::mpsc::{Receiver, SyncSender};

use idem_scope::scoped_server;
use schnellru::{ByLength, LruMap};

/// Key layout inherited from the v1 monolith.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct LegacyKey {
    pub tenant_id: String,
    pub key: String,
}

pub enum Op {
    Lookup { tenant_id: String, headers: http::HeaderMap, reply: SyncSender<Option<Vec<u8>>> },
    Store { tenant_id: String, headers: http::HeaderMap, body: Vec<u8> },
    Migrated { tenant_id: String, actor: String, migration_id: String, body: Vec<u8> },
}

pub struct ReplayCacheThread {
    cache: LruMap<LegacyKey, Vec<u8>, ByLength>,
    server_cache: LruMap<String, Vec<u8>, ByLength>,
}

fn legacy_key(tenant_id: String, key: String) -> LegacyKey {
    LegacyKey { tenant_id, key }
}

fn client_key(headers: &http::HeaderMap) -> Option<String> {
    let raw = headers.get("Idempotency-Key")?.to_str().ok()?;
    if raw.contains(['\0', '\u{1e}']) {
        return None;
    }
    Some(raw.to_owned())
}

impl ReplayCacheThread {
    pub fn new(capacity: u32) -> Self {
        Self { cache: LruMap::new(ByLength::new(capacity)), server_cache: LruMap::new(ByLength::new(capacity)) }
    }

    pub fn run(mut self, rx: Receiver<Op>) {
        for op in rx {
            match op {
                Op::Lookup { tenant_id, headers, reply } => {
                    let hit = client_key(&headers)
                        .and_then(|key| self.cache.get(&legacy_key(tenant_id, key)).cloned());
                    let _ = reply.send(hit);
                }
                Op::Store { tenant_id, headers, body } => {
                    if let Some(key) = client_key(&headers) {
                        self.cache.insert(legacy_key(tenant_id, key), body);
                    }
                }
                Op::Migrated { tenant_id, actor, migration_id, body } => {
                    match scoped_server(&tenant_id, &actor, "tenants.migrate", &migration_id) {
                        Ok(sk) => {
                            self.server_cache.insert(sk.storage_key().to_owned(), body);
                        }
                        Err(e) => log::warn!("cannot scope migration {migration_id}: {e}"),
                    }
                }
            }
        }
    }
}
