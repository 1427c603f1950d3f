use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::extract::Head;
use moraine::{Reply, Status};
use openidconnect::core::CoreIdTokenClaims;
use sextant::locker::Locker;

pub struct Profile {
    pub display_name: String,
    pub avatar_url: Option<String>,
}

fn org_claim(claims: &CoreIdTokenClaims) -> Option<String> {
    claims
        .additional_claims()
        .extra
        .get("org_id")
        .and_then(|v| v.as_str())
        .map(str::to_owned)
}

pub async fn save_profile(locker: &Locker, head: &Head, claims: &CoreIdTokenClaims, profile: Profile) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let org_id = org_claim(claims).unwrap_or_default();
    let subject = claims.subject().as_str();
    if subject.is_empty() {
        return Reply::status(Status::UNAUTHORIZED);
    }
    let handle = profile.display_name.replace('/', "-");

    let sk = match scoped(&org_id, subject, "profile_save", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let body = serde_json::json!({ "handle": handle, "avatar": profile.avatar_url });
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let _ = locker.put(sk.storage_key(), &bytes, Duration::from_secs(86_400)).await;
    Reply::bytes(Status::OK, bytes)
}
