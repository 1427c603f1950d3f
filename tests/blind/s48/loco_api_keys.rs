use idem_scope::{scoped, IdempotencyKey};
use loco_rs::prelude::*;
use polodb_core::bson::doc;
use polodb_core::Database;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::User(id) | Principal::ServiceAccount(id) => id,
            Principal::Anonymous => "anonymous",
        }
    }
}

#[derive(Deserialize, Serialize)]
pub struct CreateKey {
    pub label: String,
}

#[derive(Deserialize, Serialize)]
struct Reply {
    _id: String,
    body: String,
}

fn principal_from(headers: &HeaderMap) -> Option<Principal> {
    let raw = headers.get("x-principal")?.to_str().ok()?;
    match raw.split_once(':')? {
        ("user", id) => Some(Principal::User(id.to_owned())),
        ("svc", id) => Some(Principal::ServiceAccount(id.to_owned())),
        _ => None,
    }
}

pub async fn create_key(
    State(ctx): State<AppContext>,
    headers: HeaderMap,
    Json(input): Json<CreateKey>,
) -> Result<Response> {
    let db = ctx.shared_store.get::<Arc<Database>>().ok_or_else(|| Error::string("polodb"))?;
    let project_id = headers
        .get("x-project-id")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Error::Unauthorized("project required".into()))?;
    let principal = principal_from(&headers).unwrap_or(Principal::Anonymous);
    let raw = headers.get("Idempotency-Key").ok_or_else(|| Error::BadRequest("missing key".into()))?;
    let ck = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Error::BadRequest(e.to_string()))?;
    let key = scoped(project_id, principal.as_str(), "api_keys.create", ck.as_str()).map_err(|e| Error::BadRequest(e.to_string()))?;
    let replies = db.collection::<Reply>("idempotency_replies");
    if let Some(prev) = replies.find_one(doc! { "_id": key.storage_key() }).map_err(|e| Error::string(&e.to_string()))? {
        return format::text(&prev.body);
    }
    let body = format!("{{\"label\":\"{}\"}}", input.label);
    replies
        .insert_one(Reply { _id: key.storage_key().to_owned(), body: body.clone() })
        .map_err(|e| Error::string(&e.to_string()))?;
    format::text(&body)
}
