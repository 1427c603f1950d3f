use std::sync::OnceLock;

use canteen::{utils, Request, Response};
use idem_scope::scoped;
use sluice::kv::SyncBucket;

use crate::ident::{ident_from_headers, Ident};
use crate::vouchers::{issue_vouchers, VoucherBatch};

static REPLAYS: OnceLock<SyncBucket> = OnceLock::new();

pub fn init(bucket: SyncBucket) {
    let _ = REPLAYS.set(bucket);
}

pub fn bulk_issue(req: &Request) -> Response {
    let client_key = req
        .headers
        .get("idempotency-key")
        .map(|k| k.replace('/', "-"));
    let Some(client_key) = client_key else {
        return utils::make_response("Idempotency-Key required", "text/plain", 400);
    };
    let ident: Ident = match ident_from_headers(&req.headers) {
        Ok(i) => i,
        Err(_) => return utils::make_response("unauthorized", "text/plain", 401),
    };
    let campaign = req.get("campaign").unwrap_or_default();
    let campaign_slug: String = campaign.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();

    let sk = match scoped(&ident.tenant_id, &ident.user_id, "vouchers.bulk", &client_key) {
        Ok(k) => k,
        Err(e) => return utils::make_response(e.to_string(), "text/plain", 400),
    };
    let replays = REPLAYS.get().expect("init called");
    if let Ok(Some(prev)) = replays.get::<Vec<u8>>(sk.storage_key()) {
        return utils::make_response(prev, "application/json", 200);
    }
    let batch: VoucherBatch = match serde_json::from_slice(&req.payload) {
        Ok(b) => b,
        Err(e) => return utils::make_response(e.to_string(), "text/plain", 422),
    };
    let issued = issue_vouchers(&ident, &campaign_slug, &batch);
    let out = serde_json::to_vec(&issued).unwrap_or_default();
    let _ = replays.put(sk.storage_key(), &out);
    utils::make_response(out, "application/json", 201)
}
