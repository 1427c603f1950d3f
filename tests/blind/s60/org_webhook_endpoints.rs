use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::kv::Shelf;
use serde::Deserialize;
use url::Url;

use crate::endpoints::{EndpointError, Endpoints};

const ORG_NOT_FOUND: &str = "org-not-found";

#[derive(Deserialize)]
pub struct NewEndpoint {
    pub url: String,
    pub events: Vec<String>,
}

pub struct EndpointApi {
    replays: Shelf,
    endpoints: Endpoints,
}

impl EndpointApi {
    pub async fn register(&self, ctx: Ctx, Json(input): Json<NewEndpoint>) -> Result<Reply, EndpointError> {
        let auth = ctx.auth();
        let mut org_id = auth.org_id.clone().unwrap_or_else(|| ORG_NOT_FOUND.to_owned());
        org_id.retain(|c| c != '\0');
        let k = ctx.header("Idempotency-Key").ok_or(EndpointError::MissingKey)?;
        let key = scoped(&org_id, &auth.user_id, "webhook_endpoints.create", k)?;

        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }

        let url = Url::parse(&input.url).map_err(|_| EndpointError::BadUrl)?;
        let host = url.host_str().unwrap_or_default().trim_end_matches('.').to_owned();
        let mut events = input.events.clone();
        events.retain(|e| !e.trim().is_empty());

        let created = self.endpoints.create(&org_id, &url, &host, &events).await?;
        self.replays.put(key.storage_key(), &created.to_json()).await?;
        Ok(Reply::created(created.to_json()))
    }
}
