use std::time::Duration;

use chrono::Utc;
use sqlx::{FromRow, PgPool};
use warp::http::{Response, StatusCode};
use warp::{Filter, Rejection};

#[derive(FromRow)]
pub struct StoredResponse {
    pub status: i16,
    pub body: Vec<u8>,
}

impl StoredResponse {
    pub fn into_reply(self) -> Response<Vec<u8>> {
        let mut res = Response::new(self.body);
        *res.status_mut() = StatusCode::from_u16(self.status as u16).unwrap_or(StatusCode::OK);
        res.headers_mut().insert("idempotent-replayed", "true".parse().unwrap());
        res
    }
}

pub fn replay_lookup(pool: PgPool) -> impl Filter<Extract = (Option<StoredResponse>,), Error = Rejection> + Clone {
    warp::header::optional::<String>("idempotency-key")
        .and(warp::any().map(move || pool.clone()))
        .and_then(|idem_key: Option<String>, pool: PgPool| async move {
            let Some(idem_key) = idem_key else {
                return Ok::<_, Rejection>(None);
            };
            let row = sqlx::query_as::<_, StoredResponse>(
                "SELECT status, body FROM idempotency_records WHERE idem_key = $1 AND expires_at > now()",
            )
            .bind(&idem_key)
            .fetch_optional(&pool)
            .await
            .map_err(|_| warp::reject::reject())?;
            Ok(row)
        })
}

pub async fn purge_expired(pool: &PgPool, grace: Duration) -> sqlx::Result<u64> {
    let cutoff = Utc::now() - chrono::Duration::from_std(grace).unwrap_or_default();
    let done = sqlx::query("DELETE FROM idempotency_records WHERE expires_at < $1")
        .bind(cutoff)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}
