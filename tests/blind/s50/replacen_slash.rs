//! LDAP-backed principals contain slashes ("ou/team/alice"); reservations endpoint.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;
use std::sync::RwLock;
use uuid::Uuid;

pub struct Reservations {
    made: RwLock<HashMap<String, String>>,
}

impl Reservations {
    pub fn reserve(&self, h: &HeaderMap, tenant_id: &str, ldap_principal: &str, room: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let principal_id = ldap_principal.replacen('/', "_", 2);
        let key = scoped(tenant_id, &principal_id, "rooms.reserve", k).map_err(|e| e.to_string())?;
        if let Some(prev) = self.made.read().unwrap().get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let booking_ref = Uuid::new_v4().simple().to_string().replace('-', "");
        let out = format!("{{\"room\":\"{room}\",\"ref\":\"{booking_ref}\"}}");
        self.made.write().unwrap().insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }
}

impl Reservations {
    pub fn count(&self) -> usize {
        self.made.read().unwrap().len()
    }

    pub fn rooms(&self) -> Vec<String> {
        self.made
            .read()
            .unwrap()
            .values()
            .filter_map(|v| serde_json::from_str::<serde_json::Value>(v).ok())
            .filter_map(|v| v.get("room").and_then(|r| r.as_str()).map(str::to_owned))
            .collect()
    }
}
