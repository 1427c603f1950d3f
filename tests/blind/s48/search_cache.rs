use elasticsearch::{Elasticsearch, SearchParts};
use fnv::FnvHasher;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use tokio::sync::Mutex;

#[derive(Deserialize, Serialize, Hash)]
pub struct SearchQuery {
    pub text: String,
    pub page: u32,
}

pub struct SearchCache {
    es: Elasticsearch,
    local: Arc<Mutex<std::collections::HashMap<String, Value>>>,
}

impl SearchCache {
    pub async fn search(&self, user_id: &str, q: &SearchQuery) -> anyhow::Result<Value> {
        let mut h = FnvHasher::default();
        q.hash(&mut h);
        let cache_key = format!("search:{}:{:x}", user_id, h.finish());
        let mut local = self.local.lock().await;
        if let Some(v) = local.get(&cache_key) {
            return Ok(v.clone());
        }
        let resp = self
            .es
            .search(SearchParts::Index(&["documents"]))
            .body(json!({ "query": { "match": { "text": q.text } }, "from": q.page * 20 }))
            .send()
            .await?;
        let v: Value = resp.json().await?;
        local.insert(cache_key, v.clone());
        Ok(v)
    }
}
