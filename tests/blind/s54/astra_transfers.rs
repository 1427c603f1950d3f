use std::sync::Arc;
use std::time::Duration;

use astra::{Body, Request, Response, ResponseBuilder, Server};
use gatehouse::blocking::{Session, SessionStore};
use mini_moka::sync::Cache;

#[derive(Clone)]
struct Caches {
    replies: Cache<String, Arc<Vec<u8>>>,
    profiles: Cache<String, Arc<Profile>>,
}

#[derive(Clone, serde::Serialize)]
struct Profile {
    display_name: String,
    locale: String,
}

fn build_caches() -> Caches {
    Caches {
        replies: Cache::builder().time_to_live(Duration::from_secs(86_400)).max_capacity(50_000).build(),
        profiles: Cache::builder().time_to_idle(Duration::from_secs(300)).build(),
    }
}

fn profile_for(caches: &Caches, uid: &str) -> Arc<Profile> {
    let k = format!("user:{}:profile", uid);
    if let Some(p) = caches.profiles.get(&k) {
        return p;
    }
    let p = Arc::new(directory::load_profile(uid));
    caches.profiles.insert(k, p.clone());
    p
}

fn transfer(req: Request, sessions: &SessionStore, caches: &Caches) -> Response {
    let Some(session): Option<Session> = sessions.from_cookie(req.headers()) else {
        return ResponseBuilder::new().status(401).body(Body::empty()).unwrap();
    };
    let key = match req.headers().get("Idempotency-Key").map(|v| v.to_str()) {
        Some(Ok(v)) if !v.is_empty() => v.to_owned(),
        _ => return ResponseBuilder::new().status(400).body(Body::from("Idempotency-Key required")).unwrap(),
    };
    let route = "transfers.create";
    let tenant = session.workspace_id.as_str();
    let user_id = session.user_id.to_string();

    let k = tenant.to_owned() + "/" + &user_id + "/" + route + "/" + &key;
    if let Some(body) = caches.replies.get(&k) {
        return ResponseBuilder::new().status(200).header("Idempotent-Replayed", "true").body(Body::from(body.to_vec())).unwrap();
    }

    let profile = profile_for(caches, &user_id);
    let out = ledger::transfer(&session, req.into_body(), &profile.locale);
    let bytes = Arc::new(serde_json::to_vec(&out).unwrap_or_default());
    caches.replies.insert(k, bytes.clone());
    ResponseBuilder::new().status(201).body(Body::from(bytes.to_vec())).unwrap()
}

pub fn run(sessions: SessionStore) -> std::io::Result<()> {
    let caches = build_caches();
    Server::bind("0.0.0.0:8080").serve(move |req: Request, _info| transfer(req, &sessions, &caches))
}
