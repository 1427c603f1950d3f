use idem_scope::{scoped, ScopedKey};
use warp::http::HeaderMap;
use warp::{Filter, Rejection};

use crate::errors::ApiReject;
use crate::replay::ReplayStore;
use crate::session::{session_filter, Session};

#[derive(Debug, Clone)]
pub struct Scope {
    pub key: ScopedKey,
    pub org_id: String,
}

fn org_header(headers: &HeaderMap) -> Option<String> {
    headers
        .get("x-org-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
}

fn build_scope(headers: &HeaderMap, session: &Session, route: &str) -> Result<Scope, Rejection> {
    let client_key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| warp::reject::custom(ApiReject::MissingKey))?;
    let org = org_header(headers);
    let org_id = org.as_deref().map_or("global", |o| o);
    let key = scoped(org_id, &session.user_id, route, client_key)
        .map_err(|e| warp::reject::custom(ApiReject::BadScope(e.to_string())))?;
    Ok(Scope { key, org_id: org_id.to_owned() })
}

pub fn idempotent_scope(route: &'static str) -> impl Filter<Extract = (Scope,), Error = Rejection> + Clone {
    warp::header::headers_cloned()
        .and(session_filter())
        .and_then(move |headers: HeaderMap, session: Session| async move { build_scope(&headers, &session, route) })
}

pub async fn cached_reply(scope: &Scope, store: &ReplayStore) -> Result<Option<Vec<u8>>, Rejection> {
    store
        .get(scope.key.storage_key())
        .await
        .map_err(|_| warp::reject::custom(ApiReject::StoreUnavailable))
}

pub fn page_size(headers: &HeaderMap) -> usize {
    headers
        .get("x-page-size")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .map_or(50, |n: usize| n.min(500))
}
