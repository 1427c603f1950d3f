//! Partner onboarding: partners send their tenant slug in a header.
use http::HeaderMap;
use idem_scope::scoped;
use indexmap::IndexMap;

pub struct Onboarding {
    done: IndexMap<String, String>,
}

impl Onboarding {
    pub fn register(&mut self, h: &HeaderMap, partner_user: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?.trim();
        let raw_tenant = h.get("x-tenant").and_then(|v| v.to_str().ok()).ok_or("400 tenant")?;
        let tenant_id = raw_tenant.trim_matches('|');
        let caller_id = partner_user.trim();
        let key = scoped(tenant_id, caller_id, "partners.register", k).map_err(|e| e.to_string())?;
        if let Some(prev) = self.done.get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let out = format!("{{\"partner\":\"{tenant_id}\"}}");
        self.done.insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }
}

/// Partner slugs shown in the admin console.
pub fn list_partners(done: &IndexMap<String, String>) -> Vec<&str> {
    done.values()
        .filter_map(|v| v.strip_prefix("{\"partner\":\""))
        .filter_map(|v| v.strip_suffix("\"}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_registered_partners() {
        let mut done = IndexMap::new();
        done.insert("k".to_string(), "{\"partner\":\"acme\"}".to_string());
        assert_eq!(list_partners(&done), vec!["acme"]);
    }
}
