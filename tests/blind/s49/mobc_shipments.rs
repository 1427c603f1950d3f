//! Shipment booking; replay entries live in an embedded KV behind a mobc pool.
use bytes::Bytes;
use http::header::HeaderName;
use mobc::Pool;

use crate::kvpool::KvManager;

const IDEMPOTENCY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct Auth {
    pub org_id: String,
    pub user_id: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("missing idempotency key")]
    MissingKey,
    #[error(transparent)]
    Pool(#[from] mobc::Error<crate::kvpool::KvError>),
    #[error(transparent)]
    Kv(#[from] crate::kvpool::KvError),
    #[error(transparent)]
    Encode(#[from] postcard::Error),
}

pub async fn book(pool: &Pool<KvManager>, req: &http::Request<Bytes>, auth: &Auth) -> Result<Bytes, ApiError> {
    let key = req
        .headers()
        .get(&IDEMPOTENCY)
        .and_then(|v| v.to_str().ok())
        .ok_or(ApiError::MissingKey)?;
    let mut conn = pool.get().await?;

    let slot = postcard::to_allocvec(&(auth.org_id.as_str(), key))?;
    if let Some(v) = conn.get(&slot).await? {
        return Ok(Bytes::from(v));
    }
    let booked = crate::carriers::book(&auth.org_id, req.body()).await?;
    conn.put(&slot, booked.to_vec()).await?;
    Ok(booked)
}

pub async fn relabel(pool: &Pool<KvManager>, req: &http::Request<Bytes>, auth: &Auth) -> Result<Bytes, ApiError> {
    let key = req
        .headers()
        .get(&IDEMPOTENCY)
        .and_then(|v| v.to_str().ok())
        .ok_or(ApiError::MissingKey)?;
    let mut conn = pool.get().await?;

    let slot = postcard::to_allocvec(&(auth.org_id.as_str(), auth.user_id.as_str(), "shipment.relabel", key))?;
    if let Some(v) = conn.get(&slot).await? {
        return Ok(Bytes::from(v));
    }
    let label = crate::carriers::relabel(&auth.org_id, req.body()).await?;
    conn.put(&slot, label.to_vec()).await?;
    Ok(label)
}
