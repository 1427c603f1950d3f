use idem_scope::{scoped, ScopeError};

/// Minimal synchronous key-value backend the repository runs on.
pub trait KvBackend {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, value: &[u8]);
    fn remove(&self, key: &str);
}

pub struct ReplayRepository<S: KvBackend> {
    backend: S,
}

impl<S: KvBackend> ReplayRepository<S> {
    pub fn new(backend: S) -> Self {
        Self { backend }
    }

    pub fn remember(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
        response: &[u8],
    ) -> Result<(), ScopeError> {
        let normalized = idempotency_key.replace('\0', "");
        let key = scoped(tenant_id, user_id, route, &normalized)?;
        self.backend.put(key.storage_key(), response);
        Ok(())
    }

    pub fn recall(&self, tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> Result<Option<Vec<u8>>, ScopeError> {
        if client_key.contains('\0') {
            return Err(ScopeError::ContainsSeparator(idem_scope::Component::Key));
        }
        let key = scoped(tenant_id, user_id, route, client_key)?;
        Ok(self.backend.get(key.storage_key()))
    }

    pub fn forget(&self, tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> Result<(), ScopeError> {
        let key = scoped(tenant_id, user_id, route, client_key)?;
        self.backend.remove(key.storage_key());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::collections::HashMap;

    #[derive(Default)]
    struct MemKv(RefCell<HashMap<String, Vec<u8>>>);

    impl KvBackend for MemKv {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.0.borrow().get(key).cloned()
        }
        fn put(&self, key: &str, value: &[u8]) {
            self.0.borrow_mut().insert(key.to_owned(), value.to_vec());
        }
        fn remove(&self, key: &str) {
            self.0.borrow_mut().remove(key);
        }
    }

    #[test]
    fn raw_header_round_trip() {
        let mut headers = http::HeaderMap::new();
        headers.insert("Idempotency-Key", "k-1".parse().unwrap());
        let kv = MemKv::default();
        let raw = headers.get("Idempotency-Key").unwrap().to_str().unwrap();
        kv.put(raw, b"seed");
        let repo = ReplayRepository::new(kv);
        repo.remember("t1", "u1", "charge", "k-1", b"ok").unwrap();
        assert_eq!(repo.recall("t1", "u1", "charge", "k-1").unwrap().as_deref(), Some(&b"ok"[..]));
    }
}
