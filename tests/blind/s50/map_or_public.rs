//! Public share links: creating a link is idempotent per caller.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;
use std::sync::Mutex;

pub struct ApiKeyAuth {
    pub org_id: String,
    pub api_key_id: String,
}

pub struct Links {
    created: Mutex<HashMap<String, String>>,
}

impl Links {
    pub fn create(&self, auth: Option<&ApiKeyAuth>, headers: &HeaderMap, doc_id: &str) -> Result<String, String> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let Some(auth) = auth else {
            return Err("401 api key required".into());
        };
        let tags = headers.get("x-tags").map_or(0, |v| v.len());
        let key = scoped(&auth.org_id, &auth.api_key_id, "links.create", k).map_err(|e| e.to_string())?;
        self.store(key.storage_key(), doc_id, tags)
    }

    pub fn create_embedded(&self, auth: Option<&ApiKeyAuth>, headers: &HeaderMap, doc_id: &str) -> Result<String, String> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let org = auth.map_or("public".to_string(), |a| a.org_id.clone());
        let caller = auth.map(|a| a.api_key_id.clone()).ok_or("401")?;
        let key = scoped(&org, &caller, "links.embed", k).map_err(|e| e.to_string())?;
        self.store(key.storage_key(), doc_id, 0)
    }

    fn store(&self, key: &str, doc_id: &str, tags: usize) -> Result<String, String> {
        let mut created = self.created.lock().unwrap();
        Ok(created
            .entry(key.to_owned())
            .or_insert_with(|| format!("{{\"doc\":\"{doc_id}\",\"tags\":{tags}}}"))
            .clone())
    }
}
