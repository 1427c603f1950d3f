//! Seat booking (restate-sdk service fronted by an HTTP ingress).
use bytes::Bytes;
use http::HeaderMap;
use idem_scope::{scoped, ClaimGuard, Claimed, Fingerprint, IdempotencyKey, Store, StoredResponse};
use std::time::Duration;

const LEASE: Duration = Duration::from_secs(300);
const TTL: Duration = Duration::from_secs(86_400);

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("missing Idempotency-Key")]
    MissingKey,
    #[error("in progress")]
    InProgress,
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

pub struct Who {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Bookings<S: Store> {
    store: S,
    inventory: Inventory,
}

impl<S: Store> Bookings<S> {
    pub async fn book(&self, who: &Who, headers: &HeaderMap, body: Bytes) -> Result<Bytes, ApiError> {
        let raw = headers.get("Idempotency-Key").ok_or(ApiError::MissingKey)?;
        let k = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(anyhow::Error::from)?;
        let key = scoped(&who.tenant_id, &who.user_id, "bookings.create", k.as_str()).map_err(anyhow::Error::from)?;
        let fp = Fingerprint::of("bookings.create", &body);
        match self.store.claim(&key, &fp, LEASE).await.map_err(anyhow::Error::from)? {
            Claimed::Existing(_, Some(resp)) => return Ok(resp.body.into()),
            Claimed::Existing(_, None) => return Err(ApiError::InProgress),
            Claimed::New => {}
        }
        let booking = self.inventory.book_seat(&body).await?;
        let resp = StoredResponse { status: 201, headers: vec![], body: booking.clone() };
        self.store.complete(&key, &resp, TTL).await.map_err(anyhow::Error::from)?;
        Ok(booking.into())
    }

    pub async fn cancel(&self, who: &Who, headers: &HeaderMap, body: Bytes) -> Result<Bytes, ApiError> {
        let raw = headers.get("Idempotency-Key").ok_or(ApiError::MissingKey)?;
        let k = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(anyhow::Error::from)?;
        let key = scoped(&who.tenant_id, &who.user_id, "bookings.cancel", k.as_str()).map_err(anyhow::Error::from)?;
        let fp = Fingerprint::of("bookings.cancel", &body);
        if let Claimed::Existing(_, prev) = self.store.claim(&key, &fp, LEASE).await.map_err(anyhow::Error::from)? {
            return prev.map(|r| Bytes::from(r.body)).ok_or(ApiError::InProgress);
        }
        let store = self.store.clone();
        let release_key = key.clone();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = store.release(&release_key).await;
            });
        });
        let out = self.inventory.cancel_seat(&body).await?;
        let resp = StoredResponse { status: 200, headers: vec![], body: out.clone() };
        self.store.complete(&key, &resp, TTL).await.map_err(anyhow::Error::from)?;
        guard.complete();
        Ok(out.into())
    }
}

pub struct Inventory;
impl Inventory {
    async fn book_seat(&self, _b: &[u8]) -> anyhow::Result<Vec<u8>> { Ok(vec![]) }
    async fn cancel_seat(&self, _b: &[u8]) -> anyhow::Result<Vec<u8>> { Ok(vec![]) }
}
