use std::collections::BTreeMap;
use std::fmt;
use std::ops::Deref;
use std::sync::RwLock;

pub struct ClientKey(String);

impl ClientKey {
    pub fn from_headers(headers: &[(String, String)]) -> Option<Self> {
        headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| ClientKey(v.clone()))
    }
}

impl Deref for ClientKey {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

pub struct TenantScopedKey {
    inner: idem_scope::ScopedKey,
}

impl TenantScopedKey {
    pub fn new(tenant_id: &str, principal_id: &str, route: &str, key: &ClientKey) -> Result<Self, idem_scope::ScopeError> {
        Ok(Self { inner: idem_scope::scoped(tenant_id, principal_id, route, key)? })
    }
}

impl fmt::Display for TenantScopedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.inner.storage_key())
    }
}

pub struct Cache {
    pub map: RwLock<BTreeMap<String, Vec<u8>>>,
}

pub fn enable(cache: &Cache, tenant_id: &str, principal_id: &str, headers: &[(String, String)]) -> Option<Vec<u8>> {
    let k = ClientKey::from_headers(headers)?;
    let idem_key = TenantScopedKey::new(tenant_id, principal_id, "enable", &k).ok()?.to_string();
    cache.map.read().unwrap().get(&idem_key).cloned()
}

pub fn disable(cache: &Cache, tenant_id: &str, headers: &[(String, String)]) -> Option<()> {
    let k = ClientKey::from_headers(headers)?;
    cache.map.write().unwrap().insert(k.to_string(), Vec::new());
    Some(())
}

pub fn metrics_label(k: &ClientKey) -> String {
    let mut s = String::with_capacity(32);
    s.push_str("idem_hits_");
    s.push_str(&k[..4.min(k.len())]);
    s
}
