//! Energy-price quotes for the home battery optimiser. Identical quote
//! requests used to be collapsed by hashing the request.

use garner::bin::Bin;
use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha224};
use trellis::guard::Identity;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct QuoteReq {
    pub capacity_kwh: f32,
    pub horizon_h: u16,
    pub region: String,
}

pub async fn quote(cx: Cx, who: Identity, Json(req): Json<QuoteReq>, dedup: &Bin) -> Reply {
    let canonical = serde_json::to_vec(&req).unwrap_or_default();
    let digest = Sha224::digest(&canonical);
    let slot = format!("{}:{}:{}:{:x}", who.org_id, who.user_id, "/v1/quotes", digest);
    if let Ok(Some(prev)) = dedup.get(&slot).await {
        return Reply::bytes(Code::OK, prev);
    }
    let q = crate::pricing::quote(&req).await;
    let _ = dedup.put(&slot, q.as_bytes()).await;
    Reply::text(Code::OK, q)
}

pub async fn accept_quote(cx: Cx, who: Identity, dedup: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let raw = cx.body_bytes();
    let fingerprint = Fingerprint::of("/v1/quotes/accept", &raw);
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/quotes/accept", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = dedup.get(sk.storage_key()).await {
        if prev.starts_with(fingerprint.as_bytes()) {
            return Reply::bytes(Code::OK, prev[32..].to_vec());
        }
        return Reply::status(Code::UNPROCESSABLE_ENTITY);
    }
    let accepted = crate::pricing::accept(&who, &raw).await;
    let mut stored = fingerprint.as_bytes().to_vec();
    stored.extend_from_slice(accepted.as_bytes());
    let _ = dedup.put(sk.storage_key(), &stored).await;
    Reply::text(Code::OK, accepted)
}
