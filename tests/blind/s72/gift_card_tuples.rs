//! Gift-card top-ups. Keys are JSON5 tuples, readable in the admin tool.

use granary::silo::Silo;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

const HDR: &str = "X-Idempotency-Key";

pub async fn top_up(silo: &Silo, call: Call) -> Reply {
    let Some(member) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
    let org = member.org_id.as_str();
    let k = match call.header(HDR) {
        Some(k) => k.to_owned(),
        None => return Reply::status(Status::BadRequest),
    };
    let encoded = json5::to_string(&(org, "giftcard.topup", &k)).unwrap_or_default();
    let balance_key = json5::to_string(&(org, "giftcard.balance")).unwrap_or_default();
    if let Ok(Some(prev)) = silo.get(&encoded).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::giftcards::top_up(org, call.body()).await;
    let _ = silo.put(&encoded, out.receipt.clone()).await;
    let _ = silo.put(&balance_key, out.balance.to_le_bytes().to_vec()).await;
    Reply::bytes(Status::Created, out.receipt)
}

pub async fn check(silo: &Silo, call: Call) -> Reply {
    let Some(member) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
    let Some(k) = call.header(HDR) else { return Reply::status(Status::BadRequest) };
    let encoded = json5::to_string(&(member.org_id.as_str(), member.user_id.as_str(), "giftcard.topup", k)).unwrap_or_default();
    match silo.exists(&encoded).await {
        Ok(true) => Reply::status(Status::Ok),
        _ => Reply::status(Status::NotFound),
    }
}
