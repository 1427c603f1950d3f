//! Cart checkout over a compio-based HTTP server; sessions are cookie-based.
use http::HeaderMap;
use idem_scope::scoped;
use slab::Slab;
use std::collections::HashMap;

pub struct Session {
    pub tenant_id: String,
    pub user_id: Option<String>,
}

pub struct Checkout {
    sessions: HashMap<String, Session>,
    orders: Slab<String>,
    replay: HashMap<String, usize>,
}

impl Checkout {
    pub fn checkout(&mut self, headers: &HeaderMap, cookie: &str) -> Result<String, (u16, &'static str)> {
        let k = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or((400, "missing Idempotency-Key"))?
            .to_owned();
        let (tenant_id, user_id) = match self.sessions.get(cookie) {
            Some(s) => (s.tenant_id.clone(), s.user_id.clone()),
            None => return Err((401, "no session")),
        };
        let user_id = match user_id {
            Some(u) => u,
            None => "guest".to_string(),
        };
        let key = scoped(&tenant_id, &user_id, "cart.checkout", &k).map_err(|_| (400, "bad key"))?;
        if let Some(&slot) = self.replay.get(key.storage_key()) {
            return Ok(self.orders[slot].clone());
        }
        let slot = self.orders.insert(format!("{{\"order\":{}}}", self.orders.len()));
        self.replay.insert(key.storage_key().to_owned(), slot);
        Ok(self.orders[slot].clone())
    }

    pub fn greeting(&self, cookie: &str) -> String {
        let name = match self.sessions.get(cookie).and_then(|s| s.user_id.as_deref()) {
            Some(u) => u,
            None => "guest",
        };
        format!("Welcome back, {name}")
    }
}
