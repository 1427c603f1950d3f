//! Coupon redemption. Keys are serialised structs so the ops console can
//! decode them.

use granary::silo::Silo;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use serde::Serialize;

#[derive(Serialize)]
struct DedupKey<'a> {
    org_id: &'a str,
    client_key: &'a str,
}

#[derive(Serialize)]
struct FullKey<'a> {
    org_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    client_key: &'a str,
}

pub async fn redeem(silo: &Silo, call: Call) -> Reply {
    let Some(m) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let key = serde_xml_rs::to_string(&DedupKey { org_id: &m.org_id, client_key: k }).unwrap_or_default();
    if let Ok(Some(prev)) = silo.get(&key).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::coupons::redeem(&m.org_id, call.body()).await;
    let _ = silo.put(&key, out.clone()).await;
    Reply::bytes(Status::Created, out)
}

pub async fn unredeem(silo: &Silo, call: Call) -> Reply {
    let Some(m) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let key = serde_xml_rs::to_string(&FullKey { org_id: &m.org_id, user_id: &m.user_id, route: "coupon.unredeem", client_key: k }).unwrap_or_default();
    if let Ok(Some(prev)) = silo.get(&key).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::coupons::unredeem(&m.org_id, call.body()).await;
    let _ = silo.put(&key, out.clone()).await;
    Reply::bytes(Status::Ok, out)
}
