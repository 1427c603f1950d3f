use std::sync::Mutex;

use idem_scope::ScopedKey;
use sieve_cache::SieveCache;

/// Storage behind the replay middleware. Implementations must keep responses
/// of different tenants, callers and actions apart.
pub trait ReplayRepo: Send + Sync {
    fn fetch(&self, tenant: &str, caller: &str, action: &str, idem_key: &str) -> Option<Vec<u8>>;
    fn store(&self, tenant: &str, caller: &str, action: &str, idem_key: &str, body: Vec<u8>);
}

pub struct SieveReplayRepo {
    cache: Mutex<SieveCache<String, Vec<u8>>>,
}

impl SieveReplayRepo {
    pub fn with_capacity(n: usize) -> Self {
        Self { cache: Mutex::new(SieveCache::new(n).expect("capacity > 0")) }
    }

    fn slot(tenant: &str, caller: &str, action: &str, idem_key: &str) -> String {
        format!("{t}#{c}#{a}#{k}", t = tenant, c = caller, a = action, k = idem_key)
    }
}

impl ReplayRepo for SieveReplayRepo {
    fn fetch(&self, tenant: &str, caller: &str, action: &str, idem_key: &str) -> Option<Vec<u8>> {
        let slot = Self::slot(tenant, caller, action, idem_key);
        self.cache.lock().ok()?.get(&slot).cloned()
    }

    fn store(&self, tenant: &str, caller: &str, action: &str, idem_key: &str, body: Vec<u8>) {
        let slot = Self::slot(tenant, caller, action, idem_key);
        if let Ok(mut c) = self.cache.lock() {
            c.insert(slot, body);
        }
    }
}

/// Repo used by the v2 middleware.
pub struct ScopedSieveRepo {
    cache: Mutex<SieveCache<String, Vec<u8>>>,
}

fn slot_of(sk: &ScopedKey) -> String {
    format!("rc/{}", sk.storage_key())
}

impl ReplayRepo for ScopedSieveRepo {
    fn fetch(&self, tenant: &str, caller: &str, action: &str, idem_key: &str) -> Option<Vec<u8>> {
        let sk = idem_scope::scoped(tenant, caller, action, idem_key).ok()?;
        self.cache.lock().ok()?.get(&slot_of(&sk)).cloned()
    }

    fn store(&self, tenant: &str, caller: &str, action: &str, idem_key: &str, body: Vec<u8>) {
        let Ok(sk) = idem_scope::scoped(tenant, caller, action, idem_key) else {
            return;
        };
        if let Ok(mut c) = self.cache.lock() {
            c.insert(slot_of(&sk), body);
        }
    }
}
