use std::time::Duration;

use idem_scope::{scoped, ScopeError, ScopedKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha512};

use crate::auth::ApiPrincipal;
use crate::pricing::{PricingEngine, Quote};
use crate::replay::QuoteReplays;

#[derive(Debug, Serialize, Deserialize)]
pub struct QuoteRequest {
    pub origin_zip: String,
    pub dest_zip: String,
    pub weight_grams: u32,
    pub dims_mm: [u32; 3],
    pub hazmat: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum QuoteError {
    #[error("invalid quote request: {0}")]
    Invalid(String),
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Store(#[from] crate::replay::Error),
    #[error(transparent)]
    Pricing(#[from] crate::pricing::Error),
}

fn quote_replay_slot(who: &ApiPrincipal, req: &QuoteRequest) -> Result<(ScopedKey, Duration), QuoteError> {
    let mut cbor = Vec::with_capacity(128);
    ciborium::into_writer(req, &mut cbor).map_err(|e| QuoteError::Invalid(e.to_string()))?;
    let digest = Sha512::digest(&cbor);
    let ttl = if req.hazmat { Duration::from_secs(600) } else { Duration::from_secs(3600) };
    Ok((scoped(&who.project_id, &who.client_id, "rates.quote", &hex::encode(&digest[..32]))?, ttl))
}

pub async fn quote(
    who: &ApiPrincipal,
    cbor_body: &[u8],
    replays: &QuoteReplays,
    engine: &PricingEngine,
) -> Result<Quote, QuoteError> {
    let req: QuoteRequest = ciborium::from_reader(cbor_body).map_err(|e| QuoteError::Invalid(e.to_string()))?;
    let (slot, ttl) = quote_replay_slot(who, &req)?;
    if let Some(q) = replays.get(&slot).await? {
        return Ok(q);
    }
    let q = engine.price(&req.origin_zip, &req.dest_zip, req.weight_grams, req.dims_mm).await?;
    replays.set(&slot, &q, ttl).await?;
    Ok(q)
}

#[poem::handler]
pub async fn quote_cbor(
    who: poem::web::Data<&ApiPrincipal>,
    replays: poem::web::Data<&QuoteReplays>,
    engine: poem::web::Data<&PricingEngine>,
    body: poem::Body,
) -> poem::Result<Vec<u8>> {
    let bytes = body.into_vec().await?;
    let q = quote(&who, &bytes, &replays, &engine).await.map_err(poem::error::BadRequest)?;
    let mut out = Vec::new();
    ciborium::into_writer(&q, &mut out).map_err(poem::error::InternalServerError)?;
    Ok(out)
}
