use std::time::Duration;

use idem_scope::{scoped, Problem, ScopeError};
use moraine::auth::MaybeCaller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct Consent {
    pub purpose: String,
    pub granted: bool,
    pub locale: Option<String>,
}

pub async fn capture(locker: &Locker, head: Head, caller: MaybeCaller, Json(c): Json<Consent>) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Some(user_id) = caller.as_ref().map(|c| c.user_id.clone()) else {
        return Reply::status(Status::UNAUTHORIZED);
    };
    let project_id = caller.as_ref().map_or("", |c| c.project_id.as_str());
    let key = key.replace("\u{1e}", "");
    let locale = c.locale.clone().unwrap_or_else(|| "en".to_owned());

    let sk = match scoped(project_id, &user_id, "consent_capture", &key) {
        Ok(sk) => sk,
        Err(ScopeError::ContainsSeparator(_)) => return Reply::problem(Problem::invalid_key("separator in key")),
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let body = serde_json::json!({ "purpose": c.purpose, "granted": c.granted, "locale": locale });
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let _ = locker.put(sk.storage_key(), &bytes, Duration::from_secs(365 * 86_400)).await;
    Reply::bytes(Status::CREATED, bytes)
}
