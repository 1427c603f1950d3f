use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use idem_scope::{scoped, ScopedKey};
use warp::http::HeaderMap;

use crate::auth::OperatorCtx;

pub const MIGRATION_UP: &str = "\
CREATE TABLE settlement_idempotency (\
    storage_key TEXT PRIMARY KEY,\
    body TEXT NOT NULL,\
    expires_at TIMESTAMPTZ NOT NULL\
)";

const CLOSE_ROUTE: &str = "settlement.close";
const REOPEN_ROUTE: &str = "settlement.reopen";

#[derive(Debug, thiserror::Error)]
pub enum CloseError {
    #[error("Idempotency-Key header missing")]
    MissingKey,
    #[error("bad scope: {0}")]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Db(#[from] diesel::result::Error),
    #[error(transparent)]
    Pool(#[from] diesel_async::pooled_connection::deadpool::PoolError),
}

fn client_key(headers: &HeaderMap) -> Result<String, CloseError> {
    headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or(CloseError::MissingKey)
}

#[derive(QueryableByName)]
struct Reply {
    #[diesel(sql_type = Text)]
    body: String,
}

async fn cached_reply(pool: &Pool<AsyncPgConnection>, key: &ScopedKey) -> Result<Option<String>, CloseError> {
    let mut conn = pool.get().await?;
    let reply = diesel::sql_query("SELECT body FROM settlement_idempotency WHERE storage_key = $1 AND expires_at > now()")
        .bind::<Text, _>(key.storage_key())
        .get_result::<Reply>(&mut conn)
        .await
        .optional()?;
    Ok(reply.map(|r| r.body))
}

pub async fn close_batch(pool: &Pool<AsyncPgConnection>, op: &OperatorCtx, headers: &HeaderMap) -> Result<Option<String>, CloseError> {
    let key = client_key(headers)?;
    let scoped_key = scoped(&op.org_id, "default", CLOSE_ROUTE, &key)?;
    cached_reply(pool, &scoped_key).await
}

pub async fn reopen_batch(pool: &Pool<AsyncPgConnection>, op: &OperatorCtx, headers: &HeaderMap) -> Result<Option<String>, CloseError> {
    let key = client_key(headers)?;
    let scoped_key = scoped(&op.org_id, &op.user_id, REOPEN_ROUTE, &key)?;
    cached_reply(pool, &scoped_key).await
}
