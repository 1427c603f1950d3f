use std::collections::HashMap;
use std::sync::Mutex;

use keystone::Auth;
use relay::http::HeaderMap;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Hash, PartialEq, Eq, Serialize)]
pub struct ReplayKey {
    pub tenant_id: String,
    pub route: &'static str,
    pub key: String,
}

#[derive(Default)]
pub struct ReplayTable {
    rows: Mutex<HashMap<ReplayKey, Vec<u8>>>,
}

impl ReplayTable {
    pub fn load(&self, k: &ReplayKey) -> Option<Vec<u8>> {
        self.rows.lock().ok()?.get(k).cloned()
    }
    pub fn save(&self, k: ReplayKey, v: Vec<u8>) {
        if let Ok(mut rows) = self.rows.lock() {
            rows.insert(k, v);
        }
    }
}

#[derive(Deserialize)]
pub struct NewSubscription {
    pub url: String,
    pub events: Vec<String>,
}

pub struct Subscriptions {
    replay: ReplayTable,
    hooks: hooks::Registry,
}

impl Subscriptions {
    pub async fn create(&self, auth: &Auth, headers: &HeaderMap, body: NewSubscription) -> Result<Vec<u8>, hooks::Error> {
        let Some(key) = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return Err(hooks::Error::BadRequest("Idempotency-Key required"));
        };
        let rk = ReplayKey { tenant_id: auth.tenant_id.clone(), route: "subscriptions.create", key: key.to_owned() };
        if let Some(hit) = self.replay.load(&rk) {
            return Ok(hit);
        }
        let url = body.url.trim_end_matches('/');
        let sub = self.hooks.subscribe(&auth.tenant_id, url, &body.events).await?;
        let out = serde_json::to_vec(&sub).unwrap_or_default();
        self.replay.save(rk, out.clone());
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_by_raw_key() {
        let t = ReplayTable::default();
        let mut rows = t.rows.lock().unwrap();
        rows.insert(ReplayKey { tenant_id: String::new(), route: "", key: "k1".into() }, b"x".to_vec());
        drop(rows);
        let idempotency_key = "k1".to_string();
        let found = t.rows.lock().unwrap().iter().any(|(k, _)| k.key == idempotency_key);
        assert!(found);
    }
}
