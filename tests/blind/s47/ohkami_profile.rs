use fred::prelude::*;
use fred::types::Expiration;
use ohkami::prelude::*;
use ohkami::{FromRequest, Request, Response};
use serde::Serialize;

#[derive(Clone)]
pub struct ProfileCache(pub RedisClient);

pub struct RequestId(pub String);

impl<'req> FromRequest<'req> for RequestId {
    type Error = std::convert::Infallible;

    fn from_request(req: &'req Request) -> Option<Result<Self, Self::Error>> {
        let id = req.headers.get("X-Request-Id").map(str::to_string).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        Some(Ok(RequestId(id)))
    }
}

#[derive(Serialize)]
pub struct Profile {
    pub id: u64,
    pub display_name: String,
}

async fn load_profile(id: u64) -> Profile {
    Profile { id, display_name: format!("user-{}", id) }
}

pub async fn get_profile(Context(cache): Context<'_, ProfileCache>, id: u64, rid: RequestId) -> Response {
    tracing::info!(request_id = %rid.0, user = id, "profile lookup");
    let cache_key = format!("user:{}:profile", id);
    if let Ok(Some(hit)) = cache.0.get::<Option<String>, _>(&cache_key).await {
        return Response::OK().with_text(hit);
    }
    let profile = load_profile(id).await;
    let json = serde_json::to_string(&profile).unwrap_or_default();
    let _ = cache.0.set::<(), _, _>(&cache_key, json.as_str(), Some(Expiration::EX(60)), None, false).await;
    Response::OK().with_text(json).with_header("X-Request-Id", rid.0)
}
