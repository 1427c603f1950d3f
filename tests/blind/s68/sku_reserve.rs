use std::time::Duration;

use cobble::hold::Holds;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize)]
pub struct Reserve {
    pub sku: String,
    pub qty: u32,
    pub external_ref: String,
}

pub async fn reserve(ex: Exchange, caller: Caller, Json(r): Json<Reserve>, holds: &Holds) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    // ERP connector prefixes keys with "erp|"; drop the first bar so both forms match.
    let key = raw.replacen('|', "", 1);
    let sk = scoped(&caller.tenant_id, &caller.user_id, "stock.reserve", &key)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    let (system, order_no) = r.external_ref.split_once(':').ok_or_else(|| Reply::status(Status::BadRequest))?;
    log::debug!("reservation from {system} order {order_no}");
    holds
        .reserve(sk.storage_key(), &r.sku, r.qty, Duration::from_secs(900))
        .await
        .map_err(|_| Reply::status(Status::Conflict))?;
    Ok(Reply::status(Status::Accepted))
}

pub fn hold_window(qty: u32) -> Duration {
    if qty > 100 {
        Duration::from_secs(3600)
    } else {
        Duration::from_secs(900)
    }
}

pub fn status_label(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Created => "created",
        Status::Accepted => "accepted",
        Status::Conflict => "conflict",
        Status::BadRequest => "bad_request",
        _ => "other",
    }
}
