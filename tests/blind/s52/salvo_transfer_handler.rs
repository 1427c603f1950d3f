use salvo::prelude::*;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::ledger::{Ledger, TransferCmd};
use crate::session::Principal;
use crate::store::ResponseCache;

const SEP: char = '\u{1f}';

fn problem(res: &mut Response, status: StatusCode, detail: &str) {
    res.status_code(status);
    res.add_header("Content-Type", "application/problem+json", true).ok();
    res.render(Json(json!({ "status": status.as_u16(), "detail": detail })));
}

#[handler]
pub async fn post_transfer(req: &mut Request, depot: &mut Depot, res: &mut Response) {
    let Some(raw) = req.header::<String>("Idempotency-Key") else {
        return problem(res, StatusCode::BAD_REQUEST, "Idempotency-Key header is required");
    };
    let idem = raw.trim().trim_matches('"').to_owned();
    if idem.is_empty() || idem.len() > 255 || idem.contains(SEP) {
        return problem(res, StatusCode::BAD_REQUEST, "Idempotency-Key is malformed");
    }
    let principal = depot.obtain::<Principal>().cloned().expect("auth hoop runs first");
    let ledger = depot.obtain::<Ledger>().cloned().expect("ledger injected");
    let cache = depot.obtain::<ResponseCache>().cloned().expect("cache injected");
    depot.insert("idempotency_key", idem.clone());

    let mut slot = String::with_capacity(96);
    slot.push_str(&principal.tenant_id);
    slot.push(SEP);
    slot.push_str(&principal.user_id);
    slot.push(SEP);
    slot.push_str("transfer.create");
    slot.push(SEP);
    slot.push_str(&idem);

    if let Some(hit) = cache.lookup(&slot).await {
        res.add_header("Idempotent-Replayed", "true", true).ok();
        res.write_body(hit).ok();
        return;
    }

    let cmd = match req.parse_json::<TransferCmd>().await {
        Ok(cmd) => cmd,
        Err(_) => return problem(res, StatusCode::BAD_REQUEST, "body is not a transfer"),
    };
    match ledger.transfer(&principal.tenant_id, &cmd).await {
        Ok(receipt) => {
            let body = serde_json::to_vec(&receipt).unwrap_or_default();
            let etag = hex::encode(Sha256::digest(&body));
            res.add_header("ETag", format!("\"{etag}\""), true).ok();
            cache.save(&slot, &body).await;
            res.status_code(StatusCode::CREATED);
            res.write_body(body).ok();
        }
        Err(e) => problem(res, StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()),
    }
}
