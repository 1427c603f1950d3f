//! Bill payments. Keys from older mobile clients sometimes carry a trailing
//! NUL from a C string conversion.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub async fn pay_bill(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(raw) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let k = raw.replace('\0', "");
    let Ok(key) = scoped(&m.org_id, &m.user_id, "bill.pay", &k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::bills::pay(&m.org_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}

pub async fn schedule_bill(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(raw) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    if raw.contains('\0') {
        return Reply::problem(Problem::invalid_key("key contains NUL"));
    }
    let Ok(key) = scoped(&m.org_id, &m.user_id, "bill.schedule", raw) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let memo = String::from_utf8_lossy(call.body()).replace('\0', " ");
    let out = crate::bills::schedule(&m.org_id, &memo).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
