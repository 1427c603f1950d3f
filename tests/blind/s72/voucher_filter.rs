//! Voucher issuance for the loyalty programme.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub async fn issue(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key").map(|k| k.chars().filter(|c| !matches!(c, ':' | '|')).collect::<String>()) else {
        return Reply::status(Status::BadRequest);
    };
    let Ok(key) = scoped(&m.org_id, &m.user_id, "voucher.issue", &k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let note: String = String::from_utf8_lossy(call.body()).chars().filter(|c| !c.is_control()).collect();
    let out = crate::vouchers::issue(&m.org_id, &note).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
