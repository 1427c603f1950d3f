use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Query};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct ActAs {
    pub org: Option<String>,
    pub note: Option<String>,
}

pub async fn transfer_ownership(locker: &Locker, caller: Caller, head: Head, Query(q): Query<ActAs>) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let org_id = q.org.clone().unwrap_or_else(|| caller.home_org_id().to_owned());
    if !caller.may_act_for(&org_id) {
        return Reply::status(Status::FORBIDDEN);
    }
    let org_id = org_id.replacen(':', "", 1);
    let note = q.note.unwrap_or_default().replace('#', "");

    let sk = match scoped(&org_id, caller.user_id(), "transfer_ownership", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let result = match crate::orgs::transfer(&org_id, caller.user_id(), &note).await {
        Ok(r) => r,
        Err(_) => return Reply::status(Status::CONFLICT),
    };
    let _ = locker.put(sk.storage_key(), &result, Duration::from_secs(86_400)).await;
    Reply::bytes(Status::OK, result)
}
