use fred::prelude::*;
use fred::types::Expiration;
use gotham::hyper::{Body, HeaderMap, Response, StatusCode};
use gotham::state::{FromState, State};

#[derive(Default)]
pub struct KeyBuilder {
    tenant: Option<String>,
    principal: Option<String>,
    route: Option<String>,
    client_key: Option<String>,
}

impl KeyBuilder {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn tenant(mut self, v: impl Into<String>) -> Self {
        self.tenant = Some(v.into());
        self
    }
    pub fn principal(mut self, v: impl Into<String>) -> Self {
        self.principal = Some(v.into());
        self
    }
    pub fn route(mut self, v: impl Into<String>) -> Self {
        self.route = Some(v.into());
        self
    }
    pub fn client_key(mut self, v: impl Into<String>) -> Self {
        self.client_key = Some(v.into());
        self
    }
    pub fn build(self) -> Option<String> {
        let (tenant, principal, route, client_key) = (self.tenant?, self.principal?, self.route?, self.client_key?);
        Some(format!("v1/{tenant}/{principal}/{route}/{client_key}"))
    }
}

#[derive(Clone, gotham_derive::StateData)]
pub struct Kv {
    pub client: RedisClient,
}

pub async fn rename_project(state: &mut State) -> Response<Body> {
    let kv = Kv::borrow_from(state).clone();
    let headers = HeaderMap::borrow_from(state);
    let get = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).map(String::from);
    let built = get("x-project-id")
        .zip(get("x-user-id"))
        .zip(get("idempotency-key"))
        .and_then(|((project_id, user_id), key)| KeyBuilder::new().tenant(project_id).principal(user_id).route("projects.rename").client_key(key).build());
    let Some(storage_key) = built else {
        return reply(StatusCode::BAD_REQUEST, "");
    };
    if let Ok(Some(prev)) = kv.client.get::<Option<String>, _>(&storage_key).await {
        return reply(StatusCode::OK, &prev);
    }
    let _ = kv.client.set::<(), _, _>(&storage_key, "{\"renamed\":true}", Some(Expiration::EX(86_400)), None, false).await;
    reply(StatusCode::OK, "{\"renamed\":true}")
}

pub async fn avatar_url(state: &mut State, user_id: u64) -> Response<Body> {
    let kv = Kv::borrow_from(state).clone();
    let cache_key = format!("avatar/{user_id}/url");
    let url: Option<String> = kv.client.get(&cache_key).await.ok().flatten();
    reply(StatusCode::OK, url.as_deref().unwrap_or("/static/default.png"))
}

fn reply(code: StatusCode, body: &str) -> Response<Body> {
    Response::builder().status(code).body(Body::from(body.to_owned())).unwrap()
}
