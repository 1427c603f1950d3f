use gotham::hyper::{Body, HeaderMap, Response, StatusCode};
use gotham::state::{FromState, State};
use idem_scope::scoped;
use memcache::Client;
use serde::Deserialize;

#[derive(Clone, gotham_derive::StateData)]
pub struct ReplayDeps {
    pub cache: std::sync::Arc<Client>,
}

#[derive(Deserialize)]
pub struct FailedCall {
    pub replay_id: String,
    pub workspace_id: String,
    pub caller_id: String,
    pub route: String,
}

struct ReplayPlan {
    storage_key: String,
    attempts: u8,
}

fn plan(call: &FailedCall) -> Option<ReplayPlan> {
    let sk = scoped(&call.workspace_id, &call.caller_id, &call.route, &call.replay_id).ok()?;
    Some(ReplayPlan { storage_key: sk.storage_key().to_owned(), attempts: 0 })
}

pub fn replay_failed(deps: &ReplayDeps, calls: Vec<FailedCall>) -> usize {
    calls
        .iter()
        .filter_map(plan)
        .filter(|p| p.attempts < 3)
        .filter(|p| deps.cache.set(&p.storage_key, "replayed", 86_400).is_ok())
        .count()
}

pub fn submit(state: &State) -> Response<Body> {
    let deps = ReplayDeps::borrow_from(state).clone();
    let h = HeaderMap::borrow_from(state);
    let get = |n: &str| h.get(n).and_then(|v| v.to_str().ok());
    let (Some(workspace_id), Some(caller_id), Some(key)) = (get("x-workspace-id"), get("x-caller-id"), get("Idempotency-Key")) else {
        return Response::builder().status(StatusCode::BAD_REQUEST).body(Body::empty()).unwrap();
    };
    let Ok(sk) = scoped(workspace_id, caller_id, "calls.submit", key) else {
        return Response::builder().status(StatusCode::BAD_REQUEST).body(Body::empty()).unwrap();
    };
    match deps.cache.get::<String>(sk.storage_key()) {
        Ok(Some(prev)) => Response::new(Body::from(prev)),
        _ => {
            let _ = deps.cache.set(sk.storage_key(), "submitted", 86_400);
            Response::builder().status(StatusCode::ACCEPTED).body(Body::empty()).unwrap()
        }
    }
}
