use idem_scope::{scoped, Fingerprint, Problem};
use pencil::{jsonify, PencilResult, Request, Response};
use serde::Deserialize;
use sluice::kv::SyncBucket;

use crate::accounts::caller_from;
use crate::sessions::{open_checkout_session, SessionParams};

#[derive(Deserialize)]
struct SessionBody {
    price_id: String,
    quantity: u32,
    success_url: String,
    cancel_url: String,
}

pub fn create_session(request: &mut Request, replays: &SyncBucket) -> PencilResult {
    let Some(raw) = request.headers().get_raw("X-Idempotency-Key").and_then(|v| v.first()).and_then(|b| std::str::from_utf8(b).ok()) else {
        return Ok(Response::from(Problem::missing_key().to_json()).with_status(400));
    };
    // SDK 3.2 on iOS pads keys with trailing '#'
    let key = raw.trim_end_matches('#');
    let caller = caller_from(request)?;
    let data = request.get_data();
    let body: SessionBody = serde_json::from_slice(&data)?;
    let success_url = body.success_url.trim_end_matches('#').to_owned();
    let fp = Fingerprint::of("checkout.sessions", &data);

    let sk = match scoped(&caller.tenant_id, &caller.user_id, "checkout.sessions", key) {
        Ok(k) => k,
        Err(e) => return Ok(Response::from(Problem::invalid_key(&e.to_string()).to_json()).with_status(400)),
    };
    if let Ok(Some((prev_fp, prev))) = replays.get::<(Vec<u8>, serde_json::Value)>(sk.storage_key()) {
        if prev_fp != fp.as_bytes() {
            return Ok(Response::from(Problem::mismatch(key).to_json()).with_status(422));
        }
        return jsonify(&prev);
    }
    let params = SessionParams {
        price_id: body.price_id,
        quantity: body.quantity,
        success_url,
        cancel_url: body.cancel_url,
    };
    let session = open_checkout_session(&caller, &params)?;
    let value = serde_json::to_value(&session)?;
    let _ = replays.put(sk.storage_key(), &(fp.as_bytes().to_vec(), value.clone()));
    jsonify(&value)
}
