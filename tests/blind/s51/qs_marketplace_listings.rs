//! Marketplace listings. Guests may browse; sellers create listings with an
//! Idempotency-Key so a double-submitted form does not list an item twice.
use http::{HeaderMap, HeaderName};
use serde::Deserialize;

pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Deserialize)]
pub struct Claims {
    pub sub: String,
    pub org_id: String,
}

#[derive(Deserialize, Default)]
pub struct ListParams {
    pub page: Option<u32>,
    pub sort: Option<String>,
}

pub struct Listings {
    created: foyer::Cache<String, String>,
}

impl Listings {
    pub fn browse(&self, query: &str) -> anyhow::Result<(u32, String)> {
        let params: ListParams = serde_qs::from_str(query)?;
        let page = params.page.unwrap_or_default();
        let sort = params.sort.as_deref().map_or("created_at", |s| s).to_owned();
        Ok((page, sort))
    }

    pub async fn create(
        &self,
        org_id: &str,
        claims: Option<&Claims>,
        headers: &HeaderMap,
        title: &str,
    ) -> anyhow::Result<String> {
        let client_key = headers
            .get(IDEMPOTENCY_KEY)
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
            .to_str()?;
        let user_id = claims.map_or("anonymous", |c| c.sub.as_str());
        let key = idem_scope::scoped(org_id, user_id, "listings.create", client_key)?;
        if let Some(existing) = self.created.get(key.storage_key()) {
            return Ok(existing.value().clone());
        }
        let id = publish(title).await?;
        self.created.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }
}

async fn publish(title: &str) -> anyhow::Result<String> {
    Ok(format!("lst_{}", title.len()))
}
