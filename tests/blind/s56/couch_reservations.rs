use couch_rs::database::Database;
use couch_rs::document::TypedCouchDocument;
use couch_rs::error::CouchError;
use couch_rs::CouchDocument;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, CouchDocument, Default)]
pub struct ReplayDoc {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub _id: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub _rev: String,
    pub status: u16,
    pub body: String,
}

pub struct HoldRequest<'a> {
    pub workspace_id: &'a str,
    pub user_id: &'a str,
    pub headers: &'a http::HeaderMap,
    pub seat: &'a str,
}

pub async fn hold_seat(replays: &Database, seats: &crate::seats::Inventory, req: HoldRequest<'_>) -> Result<ReplayDoc, CouchError> {
    let Some(header_key) = req.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return Err(CouchError::new("Idempotency-Key header is required".into(), http::StatusCode::BAD_REQUEST));
    };
    let key = header_key.trim_matches('|');
    let doc_id = serde_json::to_string(&(req.workspace_id, req.user_id, "reservations.hold", key))
        .map_err(|e| CouchError::new(e.to_string(), http::StatusCode::BAD_REQUEST))?;

    match replays.get::<ReplayDoc>(&doc_id).await {
        Ok(doc) => return Ok(doc),
        Err(e) if e.status == http::StatusCode::NOT_FOUND => {}
        Err(e) => return Err(e),
    }

    let hold = seats.hold(req.workspace_id, req.seat).await;
    let mut doc = ReplayDoc {
        _id: doc_id,
        status: if hold.is_ok() { 201 } else { 409 },
        body: serde_json::to_string(&hold).unwrap_or_default(),
        ..Default::default()
    };
    replays.create(&mut doc).await?;
    Ok(doc)
}
