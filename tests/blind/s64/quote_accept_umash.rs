use std::collections::HashMap;
use std::sync::Mutex;

use moraine::auth::Caller;
use moraine::extract::{Head, RawBody};
use moraine::{Reply, Status};
use once_cell::sync::Lazy;
use umash::{Fingerprint as UmashFp, Params};

static UMASH: Lazy<Params> = Lazy::new(Params::new);

type QuoteKey = (String, String, &'static str, u64);

static ACCEPTED: Lazy<Mutex<HashMap<QuoteKey, Vec<u8>>>> = Lazy::new(|| Mutex::new(HashMap::new()));
static SHARD_LOAD: Lazy<Mutex<HashMap<u64, u32>>> = Lazy::new(|| Mutex::new(HashMap::new()));

fn payload_tag(body: &[u8]) -> u64 {
    UMASH.hasher(0).write(body).digest()
}

fn shard_of(tenant_id: &str) -> u64 {
    UMASH.hasher(7).write(tenant_id.as_bytes()).digest() % 64
}

pub fn accept_quote(caller: &Caller, head: &Head, body: RawBody) -> Reply {
    if head.header("Idempotency-Key").is_none() {
        return Reply::status(Status::BAD_REQUEST);
    }
    let shard = shard_of(caller.tenant_id());
    *SHARD_LOAD.lock().unwrap().entry(shard).or_default() += 1;

    let tag = payload_tag(body.as_bytes());
    let slot: QuoteKey = (caller.tenant_id().to_owned(), caller.user_id().to_owned(), "accept_quote", tag);
    let mut accepted = ACCEPTED.lock().unwrap();
    if let Some(prev) = accepted.get(&slot) {
        return Reply::bytes(Status::OK, prev.clone());
    }
    let fp: UmashFp = UMASH.fingerprinter(0).write(body.as_bytes()).digest();
    let resp = serde_json::json!({ "accepted": true, "check": [fp.hash[0], fp.hash[1]] });
    let bytes = serde_json::to_vec(&resp).unwrap_or_default();
    accepted.insert(slot, bytes.clone());
    Reply::bytes(Status::CREATED, bytes)
}

pub fn shard_report() -> Vec<(u64, u32)> {
    let load = SHARD_LOAD.lock().unwrap();
    let mut v: Vec<_> = load.iter().map(|(k, c)| (*k, *c)).collect();
    v.sort();
    v
}
