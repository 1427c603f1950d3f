use std::time::Duration;

use async_trait::async_trait;
use serde::Serialize;

use crate::carriers::{BookingAck, CarrierGateway, CarrierRequest};

#[derive(Debug, Clone, Hash, PartialEq, Eq, Serialize)]
pub struct DedupKey {
    pub merchant_id: String,
    pub route: &'static str,
    pub key: String,
}

#[async_trait]
pub trait AckCache: Send + Sync {
    async fn exists(&self, key: &DedupKey) -> anyhow::Result<Option<BookingAck>>;
    async fn put(&self, key: &DedupKey, ack: &BookingAck, ttl: Duration) -> anyhow::Result<()>;
}

pub struct BookingInput {
    pub merchant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub request: CarrierRequest,
}

pub struct CarrierBooker<C, G> {
    cache: C,
    gateway: G,
    ttl: Duration,
}

impl<C: AckCache, G: CarrierGateway> CarrierBooker<C, G> {
    pub fn new(cache: C, gateway: G) -> Self {
        Self { cache, gateway, ttl: Duration::from_secs(48 * 3600) }
    }

    pub async fn book(&self, input: BookingInput) -> anyhow::Result<BookingAck> {
        let BookingInput { merchant_id, user_id, idempotency_key, request } = input;
        let dk = DedupKey { merchant_id, route: "carriers.book", key: idempotency_key };
        if let Some(ack) = self.cache.exists(&dk).await? {
            tracing::info!(user = %user_id, "replaying carrier booking");
            return Ok(ack);
        }
        let ack = self.gateway.book(&dk.merchant_id, request).await?;
        self.cache.put(&dk, &ack, self.ttl).await?;
        Ok(ack)
    }
}

pub fn input_from_headers(
    headers: &http::HeaderMap,
    merchant_id: String,
    user_id: String,
    request: CarrierRequest,
) -> Option<BookingInput> {
    let idempotency_key = headers.get("Idempotency-Key")?.to_str().ok()?.to_owned();
    Some(BookingInput { merchant_id, user_id, idempotency_key, request })
}

pub async fn book_from_request<C: AckCache, G: CarrierGateway>(
    booker: &CarrierBooker<C, G>,
    headers: &http::HeaderMap,
    merchant_id: String,
    user_id: String,
    request: CarrierRequest,
) -> anyhow::Result<BookingAck> {
    let input = input_from_headers(headers, merchant_id, user_id, request).ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
    booker.book(input).await
}
