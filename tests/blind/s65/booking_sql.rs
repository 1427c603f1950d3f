use error_stack::{ensure, Report, ResultExt};
use idem_scope::{scoped, Fingerprint};
use kestrel::extract::Head;
use serde::Deserialize;
use tessera::sql::Conn;

use crate::errors::ApiError;
use crate::rooms::{Hold, RoomInventory};

const CLAIM: &str = "INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress')";
const FINISH: &str = "UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6";

#[derive(Deserialize)]
pub struct BookRoom {
    pub room_type: String,
    pub nights: u16,
    pub guests: u8,
}

pub async fn book_room(conn: &Conn, rooms: &RoomInventory, head: &Head, body: &[u8]) -> Result<Hold, Report<ApiError>> {
    let who = head.identity().ok_or(ApiError::Unauthorized)?;
    let retry = head.header_str("Idempotency-Key").ok_or(ApiError::MissingKey)?;
    let key = scoped(&who.tenant_id, &who.user_id, "book_room", retry).change_context(ApiError::BadKey)?;
    let cols = key.columns();
    let fp = Fingerprint::of("book_room", body);

    conn.query(CLAIM).bind(cols.scope_version).bind(cols.tenant_id).bind(cols.principal_id).bind(cols.route).bind(cols.ns).bind(cols.idem_key).bind(fp.as_bytes().as_slice()).execute().await.change_context(ApiError::Busy)?;

    let req: BookRoom = kestrel::json::from_slice(body).change_context(ApiError::BadBody)?;
    ensure!(req.nights > 0 && req.nights <= 30, ApiError::BadBody);
    let hold = rooms.hold(&who.tenant_id, &req.room_type, req.nights, req.guests).await.change_context(ApiError::Upstream)?;
    let response = kestrel::json::to_vec(&hold).change_context(ApiError::Internal)?;

    conn.query(FINISH).bind(cols.scope_version).bind(cols.tenant_id).bind(cols.principal_id).bind(cols.route).bind(cols.ns).bind(cols.idem_key).bind(response.as_slice()).execute().await.change_context(ApiError::Busy)?;
    Ok(hold)
}

pub async fn booking_status(conn: &Conn, head: &Head) -> Result<Option<String>, Report<ApiError>> {
    let who = head.identity().ok_or(ApiError::Unauthorized)?;
    let retry = head.header_str("Idempotency-Key").ok_or(ApiError::MissingKey)?;
    let key = scoped(&who.tenant_id, &who.user_id, "book_room", retry).change_context(ApiError::BadKey)?;
    let cols = key.columns();
    let row = conn
        .query("SELECT status FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .fetch_optional()
        .await
        .change_context(ApiError::Busy)?;
    Ok(row.map(|r| r.get("status")))
}
