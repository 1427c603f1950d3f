use idem_scope::scoped;
use loco_rs::prelude::*;
use polodb_core::bson::doc;
use polodb_core::{Collection, Database};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Serialize, Deserialize, Clone)]
pub struct OutboxRow {
    pub event_id: String,
    pub org_id: String,
    pub actor: String,
    pub topic: String,
    pub body: String,
}

#[derive(Serialize, Deserialize)]
pub struct Done {
    pub _id: String,
    pub at: i64,
}

fn done(db: &Database) -> Collection<Done> {
    db.collection("dedup")
}

pub async fn publish(State(ctx): State<AppContext>, headers: HeaderMap, Json(row): Json<OutboxRow>) -> Result<Response> {
    let db = ctx.shared_store.get::<Arc<Database>>().ok_or_else(|| Error::string("db"))?;
    let ck = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| Error::BadRequest("key".into()))?;
    let key = scoped(&row.org_id, &row.actor, "events.publish", ck).map_err(|e| Error::BadRequest(e.to_string()))?;
    if done(&db).find_one(doc! { "_id": key.storage_key() }).map_err(|e| Error::string(&e.to_string()))?.is_some() {
        return format::text("duplicate");
    }
    done(&db).insert_one(Done { _id: key.storage_key().to_owned(), at: 0 }).map_err(|e| Error::string(&e.to_string()))?;
    format::text("published")
}

pub fn relay(db: &Database, rows: Vec<OutboxRow>) -> anyhow::Result<usize> {
    let mut sent = 0;
    for row in rows.iter().filter(|r| !r.topic.is_empty()) {
        let key = scoped(&row.org_id, &row.actor, &row.topic, &row.event_id)?;
        let already = done(db).find_one(doc! { "_id": key.storage_key() })?;
        if already.is_none() {
            done(db).insert_one(Done { _id: key.storage_key().to_owned(), at: 1 })?;
            sent += 1;
        }
    }
    Ok(sent)
}
