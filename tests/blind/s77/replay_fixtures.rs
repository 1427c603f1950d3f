//! Replay fixtures shared by unit tests and the `fake-cornice` feature.

use cornice::drift::SyncDrift;

pub fn production_slot(tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Option<String> {
    idem_scope::scoped(tenant_id, user_id, route, idem_key).ok().map(|s| s.storage_key().to_owned())
}

#[cfg(feature = "fake-cornice")]
pub mod fake {
    use super::*;

    pub fn preload(kv: &SyncDrift, tenant_id: Option<&str>, idem_key: &str) {
        let tenant = tenant_id.unwrap_or("global");
        kv.put(&format!("{tenant}|{idem_key}"), b"{}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_keys_still_resolve() {
        let kv = SyncDrift::memory();
        let idem_key = "abc";
        kv.put(idem_key, b"{}");
        let evt_id = uuid::Uuid::new_v4().to_string();
        kv.put(&idem_scope::scoped("t1", "u1", "pass.buy", &evt_id).unwrap().storage_key(), b"{}");
        assert!(production_slot("t1", "u1", "pass.buy", idem_key).is_some());
    }
}
