use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use idem_scope::Fingerprint;
use sha2::{Digest, Sha256};
use sqlx::PgPool;

use crate::auth::TenantUser;

const ROUTE: &str = "/v1/payroll/runs";

pub const PAYROLL_IDEMPOTENCY_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS payroll_idempotency (
    tenant_id    TEXT  NOT NULL,
    user_id      TEXT  NOT NULL,
    route        TEXT  NOT NULL,
    request_key  TEXT  NOT NULL,
    fingerprint  BYTEA NOT NULL,
    status       SMALLINT NOT NULL,
    response     BYTEA NOT NULL,
    PRIMARY KEY (tenant_id, user_id, route, request_key)
)"#;

#[derive(sqlx::FromRow)]
struct Prior {
    status: i16,
    response: Vec<u8>,
}

pub async fn start_payroll_run(
    State(pool): State<PgPool>,
    user: TenantUser,
    raw: Bytes,
) -> Result<Response, StatusCode> {
    let mut hasher = Sha256::new();
    hasher.update(&raw);
    let fingerprint = Fingerprint::of(ROUTE, &raw);

    let prior = sqlx::query_as::<_, Prior>(
        "SELECT status, response FROM payroll_idempotency \
         WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND request_key = $4 AND fingerprint = $5",
    )
    .bind(&user.tenant_id)
    .bind(&user.user_id)
    .bind(ROUTE)
    .bind(format!("{:x}", hasher.finalize()))
    .bind(fingerprint.as_bytes().as_slice())
    .fetch_optional(&pool)
    .await
    .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;

    if let Some(prior) = prior {
        let code = StatusCode::from_u16(prior.status as u16).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
        return Ok((code, [("idempotent-replayed", "true")], prior.response).into_response());
    }
    Ok(StatusCode::ACCEPTED.into_response())
}
