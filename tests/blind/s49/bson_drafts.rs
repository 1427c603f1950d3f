//! Draft autosave for the editor; drafts are BSON documents in an embedded store.
use bson::{doc, Document};

pub struct Drafts<S> {
    idem: S,
    docs: S,
}

impl<S: crate::kv::Kv> Drafts<S> {
    pub async fn save_draft(&self, parts: &http::request::Parts, auth: &crate::auth::Auth, draft: Document) -> anyhow::Result<Document> {
        let key = parts
            .headers
            .get("Idempotency-Key")
            .map(|v| v.to_str())
            .transpose()?
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let team_id: String = auth.team_id.clone().unwrap_or_else(String::new);
        let title: String = draft.get_str("title").map(str::to_owned).unwrap_or_else(|_| String::new());

        let scoped = idem_scope::scoped(&team_id, &auth.user_id, "drafts.save", key)?;
        if let Some(prev) = self.idem.get(scoped.storage_key()).await? {
            return Ok(bson::from_slice(&prev)?);
        }
        let stored = doc! { "team": &team_id, "title": title, "body": draft };
        let id = self.docs.put(&format!("draft:{}", auth.user_id), bson::to_vec(&stored)?).await?;
        let reply = doc! { "id": id };
        self.idem.put(scoped.storage_key(), bson::to_vec(&reply)?).await?;
        Ok(reply)
    }
}
