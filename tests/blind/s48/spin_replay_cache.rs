use anyhow::Result;
use spin_sdk::key_value::Store;
use std::time::{SystemTime, UNIX_EPOCH};

pub struct ReplayCache {
    store: Store,
    ttl_secs: u64,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    at: u64,
    body: Vec<u8>,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

impl ReplayCache {
    pub fn open(label: &str, ttl_secs: u64) -> Result<Self> {
        Ok(Self { store: Store::open(label)?, ttl_secs })
    }

    pub fn remember(&self, tenant: &str, idempotency_key: &str, body: &[u8]) -> Result<()> {
        let k = format!("{}::{}", tenant, idempotency_key);
        let entry = Entry { at: now(), body: body.to_vec() };
        self.store.set(&k, &serde_cbor::to_vec(&entry)?)?;
        Ok(())
    }

    pub fn seen(&self, idem_key: &str) -> Result<bool> {
        Ok(self.store.exists(idem_key)?)
    }

    pub fn purge_expired(&self) -> Result<usize> {
        let mut n = 0;
        for k in self.store.get_keys()? {
            if let Some(raw) = self.store.get(&k)? {
                let e: Entry = serde_cbor::from_slice(&raw)?;
                if now().saturating_sub(e.at) > self.ttl_secs {
                    self.store.delete(&k)?;
                    n += 1;
                }
            }
        }
        Ok(n)
    }
}
