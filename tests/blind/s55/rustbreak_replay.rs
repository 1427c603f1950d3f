use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rustbreak::deser::Ron;
use rustbreak::{FileDatabase, RustbreakError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedResponse {
    pub status: u16,
    pub body: Vec<u8>,
    pub expires_at: DateTime<Utc>,
}

impl SavedResponse {
    pub fn problem(status: u16) -> Self {
        Self { status, body: Vec::new(), expires_at: Utc::now() }
    }
}

type ReplayMap = HashMap<String, SavedResponse>;

pub struct LocalReplay {
    db: FileDatabase<ReplayMap, Ron>,
}

fn header_key(headers: &[(String, String)]) -> Option<String> {
    headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("idempotency-key"))
        .map(|(_, v)| v.trim().to_owned())
}

impl LocalReplay {
    fn slot(tenant: &str, principal: &str, route: &str, client_key: &str) -> String {
        let mut s = String::from(tenant);
        s += "\u{1e}";
        s += principal;
        s += "\u{1e}";
        s += route;
        s += "\u{1e}";
        s += client_key;
        s
    }

    pub fn handle(
        &self,
        tenant: &str,
        principal: &str,
        route: &str,
        headers: &[(String, String)],
        run: impl FnOnce() -> SavedResponse,
    ) -> Result<SavedResponse, RustbreakError> {
        let Some(k) = header_key(headers) else {
            return Ok(SavedResponse::problem(400));
        };
        let slot = Self::slot(tenant, principal, route, &k);
        if let Some(hit) = self.db.read(|m| m.get(&slot).cloned())? {
            return Ok(hit);
        }
        let resp = run();
        self.db.write(|m| {
            m.insert(slot.clone(), resp.clone());
        })?;
        self.db.save()?;
        Ok(resp)
    }

    pub fn purge(&self) -> Result<usize, RustbreakError> {
        let now = Utc::now();
        let removed = self.db.write(|m| {
            let before = m.len();
            m.retain(|_, v| v.expires_at > now);
            before - m.len()
        })?;
        self.db.save()?;
        Ok(removed)
    }
}
