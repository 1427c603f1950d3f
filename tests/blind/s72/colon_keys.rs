//! Reservation holds for event tickets. Some ticketing partners prefix their
//! keys with a colon.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::who::Partner;
use portcullis::{Call, Reply, Status};

pub async fn hold_seats(silo: &Silo, p: &Partner, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    tracing::debug!(key = %k.replace(':', " "), "hold requested");
    let k = k.trim_start_matches(':');
    let Ok(key) = scoped(&p.merchant_id, &p.partner_id, "seats.hold", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::seats::hold(&p.merchant_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}

pub async fn release_seats(silo: &Silo, p: &Partner, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    if memchr::memchr3(b':', b'|', 0, k.as_bytes()).is_some() {
        return Reply::problem(Problem::invalid_key("separator in key"));
    }
    let Ok(key) = scoped(&p.merchant_id, &p.partner_id, "seats.release", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::seats::release(&p.merchant_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Ok, out)
}
