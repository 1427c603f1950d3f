use digest::Digest;
use idem_scope::{scoped, IdempotencyKey};
use meilisearch_sdk::client::Client;
use rama::http::{Body, HeaderMap, Response, StatusCode};
use serde::{Deserialize, Serialize};
use sha1::Sha1;

#[derive(Serialize, Deserialize, Clone)]
pub struct QuoteReq {
    pub origin: String,
    pub destination: String,
    pub weight_g: u32,
}

#[derive(Serialize, Deserialize, Clone)]
struct QuoteDoc {
    id: String,
    price: u64,
}

pub struct Subject {
    pub team_id: String,
    pub subject: String,
}

fn body_digest<D: Digest>(bytes: &[u8]) -> String {
    let out = D::digest(bytes);
    out.iter().map(|b| format!("{:02x}", b)).collect()
}

fn doc_id(storage_key: &str) -> String {
    body_digest::<Sha1>(storage_key.as_bytes())
}

pub async fn quote(meili: &Client, who: &Subject, headers: &HeaderMap, raw: bytes::Bytes) -> Response {
    let input: QuoteReq = match serde_json::from_slice(&raw) {
        Ok(q) => q,
        Err(_) => return Response::builder().status(StatusCode::BAD_REQUEST).body(Body::empty()).unwrap(),
    };
    let index = meili.index("quote_replays");
    let key = match headers.get("idempotency-key").map(|v| IdempotencyKey::parse(v.as_bytes())) {
        Some(Ok(ck)) => scoped(&who.team_id, &who.subject, "quotes", ck.as_str()),
        _ => scoped(&who.team_id, &who.subject, "quotes", &body_digest::<Sha1>(&raw)),
    };
    let Ok(key) = key else {
        return Response::builder().status(StatusCode::BAD_REQUEST).body(Body::empty()).unwrap();
    };
    let id = doc_id(key.storage_key());
    if let Ok(prev) = index.get_document::<QuoteDoc>(&id).await {
        return Response::new(Body::from(serde_json::to_string(&prev).unwrap()));
    }
    let doc = QuoteDoc { id: id.clone(), price: u64::from(input.weight_g) * 3 };
    let _ = index.add_or_replace(&[doc.clone()], Some("id")).await;
    Response::new(Body::from(serde_json::to_string(&doc).unwrap()))
}
