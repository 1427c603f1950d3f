use fastly::http::{header, StatusCode};
use fastly::kv_store::KVStore;
use fastly::{Error, Request, Response};
use idem_scope::Fingerprint;
use serde::{Deserialize, Serialize};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const STORE_NAME: &str = "checkout_replays";

#[derive(Deserialize)]
struct EdgeIdentity {
    tenant_id: String,
    user_id: String,
}

#[derive(Serialize, Deserialize)]
struct CachedCheckout {
    status: u16,
    body: Vec<u8>,
    fingerprint: Vec<u8>,
}

fn identity(req: &Request) -> Result<EdgeIdentity, Response> {
    let raw = req
        .get_header_str("x-edge-identity")
        .ok_or_else(|| Response::from_status(StatusCode::UNAUTHORIZED))?;
    serde_json::from_str(raw).map_err(|_| Response::from_status(StatusCode::UNAUTHORIZED))
}

#[fastly::main]
fn main(mut req: Request) -> Result<Response, Error> {
    let who = match identity(&req) {
        Ok(who) => who,
        Err(resp) => return Ok(resp),
    };
    let Some(key) = req.get_header_str(IDEMPOTENCY_HEADER).map(str::to_owned) else {
        return Ok(Response::from_status(StatusCode::BAD_REQUEST));
    };
    let body = req.take_body_bytes();
    let fp = Fingerprint::of("checkout", &body);

    let store = KVStore::open(STORE_NAME)?.expect("kv store is linked to this service");
    let kv_key = format!("{}:{}:{}:{}", who.tenant_id, who.user_id, "checkout", key);

    if let Some(mut hit) = store.lookup(&kv_key)? {
        let cached: CachedCheckout = serde_json::from_slice(&hit.take_body_bytes())?;
        if cached.fingerprint.as_slice() != fp.as_bytes() {
            return Ok(Response::from_status(StatusCode::UNPROCESSABLE_ENTITY)
                .with_body(format!("Idempotency-Key {key} was used with another payload")));
        }
        return Ok(Response::from_status(cached.status)
            .with_header("Idempotent-Replayed", "true")
            .with_body(cached.body));
    }

    req.set_body(body);
    let mut beresp = req.send("checkout_origin")?;
    let status = beresp.get_status();
    let out = beresp.take_body_bytes();
    if status.is_success() || status.is_client_error() {
        let record = CachedCheckout {
            status: status.as_u16(),
            body: out.clone(),
            fingerprint: fp.as_bytes().to_vec(),
        };
        store.insert(&kv_key, serde_json::to_vec(&record)?)?;
    }
    Ok(Response::from_status(status)
        .with_header(header::CONTENT_TYPE, "application/json")
        .with_body(out))
}
