use std::hash::Hasher;

use fred::prelude::*;
use fred::types::Expiration;
use idem_scope::{scoped, Fingerprint, ScopedKey};
use serde::{Deserialize, Serialize};
use twox_hash::XxHash64;
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct Shards {
    pub nodes: Vec<RedisClient>,
}

#[derive(Deserialize, Serialize)]
pub struct BookingIn {
    pub room: String,
    pub nights: u8,
    pub guest_email: String,
}

#[derive(Serialize)]
struct StoredEntry {
    fingerprint: String,
    response: String,
}

impl Shards {
    fn node_for(&self, sk: &ScopedKey) -> &RedisClient {
        let mut h = XxHash64::with_seed(7);
        h.write(sk.storage_key().as_bytes());
        let idx = (h.finish() % self.nodes.len() as u64) as usize;
        &self.nodes[idx]
    }
}

fn payload_id(b: &BookingIn) -> String {
    let bytes = serde_json::to_vec(b).unwrap_or_default();
    format!("{:x}", XxHash64::oneshot(0, &bytes))
}

pub async fn book(mut req: Request) -> Result<Response> {
    let shards = req.state::<Shards>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let tenant: String = req.header("x-tenant-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let user_id: String = req.header("x-user-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let raw = req.bytes().await?;
    let fp = Fingerprint::of("bookings.create", &raw);
    let sk = scoped(&tenant, &user_id, "bookings.create", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    let node = shards.node_for(&sk);
    let entry = StoredEntry { fingerprint: hex::encode(fp.as_bytes()), response: "{\"booked\":true}".into() };
    let _: () = node.set(sk.storage_key(), serde_json::to_string(&entry).unwrap_or_default(), Some(Expiration::EX(86_400)), None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text(entry.response))
}

pub async fn hold(mut req: Request) -> Result<Response> {
    let shards = req.state::<Shards>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let tenant: String = req.header("x-tenant-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let user_id: String = req.header("x-user-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let input: BookingIn = req.json().await?;
    let sk = scoped(&tenant, &user_id, "bookings.hold", &payload_id(&input)).map_err(|_| StatusCode::BAD_REQUEST)?;
    let node = shards.node_for(&sk);
    let prior: Option<String> = node.get(sk.storage_key()).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text(prior.unwrap_or_else(|| format!("held {}", input.room))))
}
