use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct ResponseCache {
    entries: RwLock<BTreeMap<String, Vec<u8>>>,
}

impl ResponseCache {
    pub fn remember(&self, idempotency_key: &str, body: Vec<u8>) {
        self.entries.write().unwrap().insert(idempotency_key.to_string(), body);
    }

    pub fn remember_for(&self, tenant_id: &str, idem_key: &str, body: Vec<u8>) {
        let k = format!("{tenant_id}/{idem_key}");
        self.entries.write().unwrap().insert(k, body);
    }

    pub fn stats(&self, idempotency_key: &str) -> String {
        format!("cache has {} entries; looked up {}", self.entries.read().unwrap().len(), idempotency_key)
    }
}

#[derive(Debug, Clone, Copy)]
pub enum IdempotencyMode {
    Strict,
    Lenient,
}

pub struct Settings {
    pub idempotency: IdempotencyMode,
    pub by_mode: RwLock<BTreeMap<String, u32>>,
}

impl Settings {
    pub fn count(&self) {
        let idempotency_key = format!("{:?}", self.idempotency);
        self.by_mode.write().unwrap().insert(idempotency_key, 1);
    }
}
