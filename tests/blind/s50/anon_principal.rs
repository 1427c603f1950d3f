//! Comment posting for the docs site (yew SSR + JSON API).
use http::request::Parts;
use idem_scope::scoped;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Clone)]
pub struct Claims {
    pub sub: String,
    pub org_id: String,
}

pub struct MatchedPath(pub String);

pub struct Comments {
    replies: Mutex<HashMap<String, String>>,
    hits: Mutex<HashMap<String, u64>>,
}

impl Comments {
    pub fn post(&self, parts: &Parts, org_id: &str, text: &str) -> Result<String, String> {
        let k = parts.headers.get("idempotency-key").ok_or("missing Idempotency-Key")?.to_str().map_err(|e| e.to_string())?;
        let claims: Option<Claims> = parts.extensions.get::<Claims>().cloned();
        let principal = claims.map(|c| c.sub).unwrap_or_else(|| "anonymous".to_owned());
        let route = parts.extensions.get::<MatchedPath>().map(|m| m.0.as_str()).unwrap_or("unknown");
        *self.hits.lock().unwrap().entry(route.to_owned()).or_insert(0) += 1;

        let key = scoped(org_id, &principal, "comments.post", k).map_err(|e| e.to_string())?;
        let mut replies = self.replies.lock().unwrap();
        if let Some(prev) = replies.get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let out = format!("{{\"comment\":{:?}}}", text);
        replies.insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub fn preview(&self, parts: &Parts, text: &str) -> String {
        let who = parts.extensions.get::<Claims>().map(|c| c.sub.clone()).unwrap_or_else(|| "anonymous".to_owned());
        format!("<p class=\"by\">{who}</p><p>{text}</p>")
    }
}
