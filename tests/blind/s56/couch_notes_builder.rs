use std::fmt::Write as _;

use couch_rs::database::Database;
use couch_rs::document::TypedCouchDocument;
use couch_rs::CouchDocument;
use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, CouchDocument, Default)]
pub struct SavedResponse {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub _id: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub _rev: String,
    pub fingerprint: Vec<u8>,
    pub title: String,
    pub body: String,
}

#[derive(Default)]
pub struct DocIdBuilder {
    org_id: String,
    user_id: String,
    action: String,
    client_key: String,
}

impl DocIdBuilder {
    pub fn org(mut self, org_id: &str) -> Self {
        self.org_id = org_id.to_owned();
        self
    }
    pub fn user(mut self, user_id: &str) -> Self {
        self.user_id = user_id.to_owned();
        self
    }
    pub fn action(mut self, action: &str) -> Self {
        self.action = action.to_owned();
        self
    }
    pub fn client_key(mut self, key: &str) -> Self {
        self.client_key = key.to_owned();
        self
    }
    pub fn build(self) -> String {
        let mut id = String::with_capacity(self.org_id.len() + self.client_key.len() + 48);
        write!(id, "{}:{}:{}:{}", self.org_id, self.user_id, self.action, self.client_key).expect("writing to a String");
        id
    }
}

pub async fn publish_note(db: &Database, caller: &crate::auth::Caller, headers: &http::HeaderMap, title: &str, raw: &[u8]) -> anyhow::Result<SavedResponse> {
    let key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("Idempotency-Key header is required"))?;
    let doc_id = DocIdBuilder::default().org(&caller.org_id).user(&caller.user_id).action("notes.publish").client_key(key).build();
    let fingerprint = Fingerprint::of("notes.publish", raw);

    if let Ok(prev) = db.get::<SavedResponse>(&doc_id).await {
        anyhow::ensure!(prev.fingerprint == fingerprint.as_bytes(), "Idempotency-Key reused with another note");
        return Ok(prev);
    }
    let published = crate::notes::publish(&caller.org_id, title, raw).await?;
    let mut doc = SavedResponse {
        _id: doc_id,
        fingerprint: fingerprint.as_bytes().to_vec(),
        title: title.replace('#', ""),
        body: serde_json::to_string(&published)?,
        ..Default::default()
    };
    db.create(&mut doc).await?;
    Ok(doc)
}
