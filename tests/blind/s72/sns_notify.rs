//! Notification fan-out: customers call POST /notify; AWS SNS also delivers
//! to this service over HTTPS for system notices.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

const SNS_PRINCIPAL: &str = "sns-bridge";

pub async fn notify(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&m.org_id, &m.user_id, "notify.deliver", k) else { return Reply::status(Status::BadRequest) };
    if silo.exists(key.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::Ok);
    }
    crate::fanout::deliver(&m.org_id, call.body()).await;
    let _ = silo.put(key.storage_key(), b"sent".to_vec()).await;
    Reply::status(Status::Accepted)
}

pub async fn sns_endpoint(silo: &Silo, call: Call) -> Reply {
    let Some(mid) = call.header("x-amz-sns-message-id") else { return Reply::status(Status::BadRequest) };
    let Some(org) = call.query("org") else { return Reply::status(Status::BadRequest) };
    tracing::info!(message_id = mid, "sns delivery");
    let Ok(key) = scoped(org, SNS_PRINCIPAL, "notify.deliver", &format!("sns:{mid}")) else {
        return Reply::status(Status::BadRequest);
    };
    if silo.exists(key.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::Ok);
    }
    crate::fanout::deliver(org, call.body()).await;
    let _ = silo.put(key.storage_key(), b"sent".to_vec()).await;
    Reply::status(Status::Ok)
}
