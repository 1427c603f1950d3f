use fred::prelude::*;
use fred::types::{Expiration, SetOptions};
use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct CachedResponse {
    pub status: u16,
    pub body: Vec<u8>,
}

pub struct ResponseCache {
    pub redis: RedisClient,
}

pub struct Inbound<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub idempotency_header: Option<&'a str>,
    pub body: &'a [u8],
}

fn encode(resp: &CachedResponse) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(resp, &mut out).expect("cbor encoding of a plain struct");
    out
}

async fn render_invoice(body: &[u8]) -> anyhow::Result<CachedResponse> {
    Ok(CachedResponse { status: 201, body: body.to_vec() })
}

impl ResponseCache {
    pub async fn replay(&self, sk: &ScopedKey) -> anyhow::Result<Option<CachedResponse>> {
        let raw: Option<Vec<u8>> = self.redis.get(sk.storage_key()).await?;
        Ok(match raw {
            Some(bytes) => Some(ciborium::from_reader(bytes.as_slice())?),
            None => None,
        })
    }

    pub async fn handle(&self, inbound: Inbound<'_>) -> anyhow::Result<CachedResponse> {
        let key = inbound.idempotency_header.ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(inbound.tenant_id, inbound.user_id, "invoices.render", key)?;
        if let Some(hit) = self.replay(&sk).await? {
            return Ok(hit);
        }
        let _: Option<String> = self.redis.set(sk.storage_key(), "in_progress", Some(Expiration::EX(120)), Some(SetOptions::NX), false).await?;
        let rendered = render_invoice(inbound.body).await.expect("renderer never fails for validated input");
        let encoded = encode(&rendered);
        let _: () = self.redis.set(sk.storage_key(), encoded, Some(Expiration::EX(86_400)), None, false).await?;
        Ok(rendered)
    }
}

pub fn inbound_from<'a>(headers: &'a http::HeaderMap, tenant_id: &'a str, user_id: &'a str, body: &'a [u8]) -> Inbound<'a> {
    Inbound { tenant_id, user_id, idempotency_header: headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()), body }
}
