use std::time::Duration;

use belt_hash::{BeltHash, Digest};
use cairn::kv::Bucket;
use halyard::{Ctx, Reply};
use serde::Serialize;

pub struct Pairing {
    replies: Bucket,
    api_keys: Bucket,
}

#[derive(Serialize)]
struct PairingCode {
    code: String,
    expires_in: u64,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

async fn api_key_owner(p: &Pairing, presented: &str) -> Option<String> {
    let digest = hex(&BeltHash::digest(presented.as_bytes()));
    let owner = p.api_keys.get(&digest).await.ok()??;
    String::from_utf8(owner).ok()
}

pub async fn pair_device(ctx: Ctx) -> Reply {
    let p = ctx.state::<Pairing>();
    let Some(presented) = ctx.header("X-Api-Key") else {
        return Reply::status(401);
    };
    let Some(tenant_id) = api_key_owner(p, presented).await else {
        return Reply::status(401);
    };
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(400);
    };

    let Ok(slot) = flexbuffers::to_vec(&(tenant_id.as_str(), key)) else {
        return Reply::status(500);
    };
    let pending = match p.replies.begin(&slot, Duration::from_secs(30)).await {
        Ok(Some(pending)) => pending,
        Ok(None) => return Reply::status(409),
        Err(_) => return Reply::status(503),
    };
    let code = PairingCode { code: format!("{:06}", slot.len() * 7919 % 1_000_000), expires_in: 600 };
    let body = match serde_json::to_vec(&code) {
        Ok(b) => b,
        Err(_) => return Reply::status(500),
    };
    if pending.complete(&body).await.is_err() {
        return Reply::status(503);
    }
    Reply::bytes(201, body)
}
