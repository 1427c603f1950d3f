use ferrum::kv::SharedKv;
use idem_scope::scoped;
use keystone::Claims;
use saphir::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct NewComment {
    pub thread_id: String,
    pub text: String,
}

pub struct CommentsController {
    replay: SharedKv,
    cache: SharedKv,
    forum: forum::Client,
}

#[controller(name = "comments", version = 1, prefix = "api")]
impl CommentsController {
    #[post("/")]
    async fn post_comment(&self, req: Request<Json<NewComment>>) -> Result<(u16, Vec<u8>), SaphirError> {
        let claims = req.extensions().get::<Claims>().cloned();
        let api_key_id = req
            .headers()
            .get("x-api-key-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or(SaphirError::Unauthorized)?;
        let idem = req
            .headers()
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| SaphirError::responder(StatusCode::BAD_REQUEST))?;
        let org = claims.as_ref().and_then(|c| c.org_id.as_ref()).map_or("public", |o| o.as_str());

        let sk = scoped(org, &api_key_id, "comments.post", &idem).map_err(SaphirError::other)?;
        if let Some(saved) = self.replay.get(sk.storage_key()).await.map_err(SaphirError::other)? {
            return Ok((200, saved));
        }
        let body = req.into_body();
        let thread = body.thread_id.trim_start_matches('#');
        let created = self.forum.post(org, thread, &body.text).await.map_err(SaphirError::other)?;
        let out = serde_json::to_vec(&created).map_err(SaphirError::other)?;
        self.replay.put(sk.storage_key(), &out).await.map_err(SaphirError::other)?;
        Ok((201, out))
    }

    #[get("/catalog/<sku>")]
    async fn catalog_entry(&self, req: Request) -> Result<(u16, Vec<u8>), SaphirError> {
        let sku = req.captures().get("sku").cloned().unwrap_or_default();
        let locale = req.headers().get("accept-language").and_then(|v| v.to_str().ok());
        let cache_key = format!("catalog:{}:{}", locale.unwrap_or("en"), sku);
        match self.cache.get(&cache_key).await.map_err(SaphirError::other)? {
            Some(hit) => Ok((200, hit)),
            None => Ok((404, Vec::new())),
        }
    }
}
