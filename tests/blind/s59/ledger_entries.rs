use std::sync::OnceLock;

use canteen::{utils, Canteen, Method, Request, Response};
use concread::bptree::BptreeMap;

use crate::ident::{ident_from_headers, Ident};
use crate::ledger::{append_entry, EntryRequest};

static POSTED: OnceLock<BptreeMap<Vec<u8>, Vec<u8>>> = OnceLock::new();

pub fn register(cnt: &mut Canteen) {
    let _ = POSTED.set(BptreeMap::new());
    cnt.add_route("/ledger/entries", &[Method::Post], post_entry);
}

fn ledger_key(ident: &Ident, route: &str, key: &str) -> Vec<u8> {
    let mut buf = Vec::with_capacity(ident.tenant_id.len() + ident.user_id.len() + route.len() + key.len() + 3);
    buf.extend_from_slice(ident.tenant_id.as_bytes());
    buf.push(0);
    buf.extend_from_slice(ident.user_id.as_bytes());
    buf.push(0);
    buf.extend_from_slice(route.as_bytes());
    buf.push(0);
    buf.extend_from_slice(key.as_bytes());
    buf
}

fn post_entry(req: &Request) -> Response {
    let key = match req.headers.get("idempotency-key") {
        Some(k) if !k.is_empty() => k.as_str(),
        _ => return utils::make_response("missing Idempotency-Key", "text/plain", 400),
    };
    if key.as_bytes().contains(&0) {
        return utils::make_response("Idempotency-Key contains NUL", "text/plain", 400);
    }
    let ident = match ident_from_headers(&req.headers) {
        Ok(i) => i,
        Err(_) => return utils::make_response("unauthorized", "text/plain", 401),
    };
    let map = POSTED.get().expect("registered");
    let slot = ledger_key(&ident, "ledger.append", key);

    if let Some(prev) = map.read().get(&slot) {
        let mut res = utils::make_response(prev.clone(), "application/json", 200);
        res.add_header("Idempotent-Replayed", "true");
        return res;
    }

    let entry: EntryRequest = match serde_json::from_slice(&req.payload) {
        Ok(e) => e,
        Err(e) => return utils::make_response(e.to_string(), "text/plain", 422),
    };
    let posted = append_entry(&ident, &entry);
    let out = serde_json::to_vec(&posted).unwrap_or_default();
    let etag = format!("\"{:08x}\"", fasthash::murmur3::hash32(&out));

    let mut w = map.write();
    w.insert(slot, out.clone());
    w.commit();

    let mut res = utils::make_response(out, "application/json", 201);
    res.add_header("ETag", &etag);
    res
}
