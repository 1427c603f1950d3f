use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};
use sha3::{Digest, Sha3_256};
use surrealdb::engine::any::Any;
use surrealdb::Surreal;
use trillium::{Conn, Status};

#[derive(Deserialize, Serialize, Hash)]
pub struct OrderIn {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

#[derive(Serialize, Deserialize)]
pub struct Replay {
    pub status: u16,
    pub body: String,
}

pub enum Auth {
    Member { org_id: String, user_id: String },
    Anonymous,
}

fn auth(conn: &Conn) -> Auth {
    match (conn.request_headers().get_str("x-org-id"), conn.request_headers().get_str("x-user-id")) {
        (Some(o), Some(u)) => Auth::Member { org_id: o.into(), user_id: u.into() },
        _ => Auth::Anonymous,
    }
}

async fn remember(db: &Surreal<Any>, sk: &ScopedKey, body: &str) -> surrealdb::Result<()> {
    let _: Option<Replay> = db.upsert(("idempotency", sk.storage_key())).content(Replay { status: 201, body: body.into() }).await?;
    Ok(())
}

pub async fn place_order(mut conn: Conn, db: &Surreal<Any>) -> Conn {
    let Some(key) = conn.request_headers().get_str("Idempotency-Key").map(String::from) else {
        return conn.with_status(Status::BadRequest);
    };
    let (org_id, user_id) = match auth(&conn) {
        Auth::Member { org_id, user_id } => (org_id, user_id),
        Auth::Anonymous => ("anonymous".to_string(), "anonymous".to_string()),
    };
    let Ok(sk) = scoped(&org_id, &user_id, "orders.place", &key) else {
        return conn.with_status(Status::BadRequest);
    };
    let body = conn.request_body_string().await.unwrap_or_default();
    if remember(db, &sk, &body).await.is_err() {
        return conn.with_status(Status::InternalServerError);
    }
    conn.with_status(Status::Created)
}

pub async fn quick_reorder(mut conn: Conn, db: &Surreal<Any>) -> Conn {
    let Auth::Member { org_id, user_id } = auth(&conn) else {
        return conn.with_status(Status::Unauthorized);
    };
    let raw = conn.request_body_string().await.unwrap_or_default();
    let Ok(order) = serde_json::from_str::<OrderIn>(&raw) else {
        return conn.with_status(Status::UnprocessableEntity);
    };
    let canonical = serde_json::to_vec(&order).unwrap_or_default();
    let digest = format!("{:x}", Sha3_256::digest(&canonical));
    let Ok(sk) = scoped(&org_id, &user_id, "orders.reorder", &digest) else {
        return conn.with_status(Status::BadRequest);
    };
    let existing: Option<Replay> = db.select(("idempotency", sk.storage_key())).await.ok().flatten();
    if let Some(r) = existing {
        return conn.with_status(r.status).with_body(r.body);
    }
    let _ = remember(db, &sk, "{\"reordered\":true}").await;
    conn.with_status(Status::Created)
}
