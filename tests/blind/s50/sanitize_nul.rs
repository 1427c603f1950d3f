//! Ticket creation for the support desk (isahc-based integrations, hyperlane API).
use http::HeaderMap;
use idem_scope::{scoped, Problem, ScopeError};
use std::collections::HashMap;
use std::sync::Mutex;

pub struct Tickets {
    created: Mutex<HashMap<String, String>>,
}

fn client_key(h: &HeaderMap) -> Result<&str, Problem> {
    h.get("Idempotency-Key")
        .ok_or_else(Problem::missing_key)?
        .to_str()
        .map_err(|_| Problem::invalid_key("not visible ASCII"))
}

impl Tickets {
    pub fn open(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, subject_line: &str) -> Result<String, Problem> {
        let k = client_key(h)?;
        let k = k.replace('\0', "");
        let key = scoped(tenant_id, user_id, "tickets.open", &k).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let log_line = subject_line.replace('\n', " ");
        log::info!("opening ticket: {log_line}");
        let mut created = self.created.lock().unwrap();
        Ok(created.entry(key.storage_key().to_owned()).or_insert_with(|| "{\"ticket\":1}".into()).clone())
    }

    pub fn reopen(&self, h: &HeaderMap, tenant_id: &str, user_id: &str) -> Result<String, Problem> {
        let k = client_key(h)?;
        if k.contains('\0') || tenant_id.contains('\0') {
            return Err(Problem::invalid_key(&ScopeError::ContainsSeparator(idem_scope::Component::Key).to_string()));
        }
        let key = scoped(tenant_id, user_id, "tickets.reopen", k).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let mut created = self.created.lock().unwrap();
        Ok(created.entry(key.storage_key().to_owned()).or_insert_with(|| "{\"reopened\":true}".into()).clone())
    }
}
