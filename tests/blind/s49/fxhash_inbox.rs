//! In-memory inbox for a single-node notification relay (rustc-hash maps).
use std::collections::VecDeque;
use std::ops::Deref;

use http::HeaderMap;
use rustc_hash::{FxHashMap, FxHashSet};

pub struct ClientKey(String);

impl ClientKey {
    pub fn from_headers(h: &HeaderMap) -> Option<Self> {
        h.get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .filter(|s| !s.is_empty())
            .map(|s| ClientKey(s.to_owned()))
    }
}

impl Deref for ClientKey {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

pub enum Rejected {
    MissingKey,
    Duplicate,
}

pub struct Inbox {
    seen: FxHashSet<String>,
    queue: VecDeque<crate::Notification>,
    rendered: FxHashMap<String, String>,
}

impl Inbox {
    pub fn accept(&mut self, headers: &HeaderMap, msg: crate::Notification) -> Result<(), Rejected> {
        let Some(key) = ClientKey::from_headers(headers) else {
            return Err(Rejected::MissingKey);
        };
        if !self.seen.insert(key.0.clone()) {
            log::debug!("duplicate notification {}", &*key);
            return Err(Rejected::Duplicate);
        }
        self.queue.push_back(msg);
        Ok(())
    }

    pub fn render(&mut self, template: &str, vars: &crate::Vars) -> &str {
        self.rendered
            .entry(template.to_owned())
            .or_insert_with(|| crate::templates::render(template, vars))
    }
}
