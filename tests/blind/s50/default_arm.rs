//! Reports API with newtype ids; auth is resolved by a QUIC (s2n-quic) front door.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Mutex;

#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct TenantId(String);
impl Deref for TenantId {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

#[derive(Clone)]
pub struct Principal(pub String);
impl AsRef<str> for Principal {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

pub struct Peer {
    pub tenant: Option<TenantId>,
    pub principal: Principal,
    pub retries: Option<u8>,
}

pub struct Reports {
    runs: Mutex<HashMap<String, String>>,
}

impl Reports {
    pub fn run(&self, peer: &Peer, headers: &HeaderMap, report: &str) -> Result<String, String> {
        let k = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let tenant: TenantId = match &peer.tenant {
            Some(t) => t.clone(),
            None => Default::default(),
        };
        let retries: u8 = match peer.retries {
            Some(r) => r,
            None => Default::default(),
        };
        let key = scoped(&tenant, peer.principal.as_ref(), "reports.run", k).map_err(|e| e.to_string())?;
        let mut runs = self.runs.lock().unwrap();
        Ok(runs
            .entry(key.storage_key().to_owned())
            .or_insert_with(|| format!("{{\"report\":\"{report}\",\"retries\":{retries}}}"))
            .clone())
    }
}
