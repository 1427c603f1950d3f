use std::time::Duration;

use idem_scope::{scoped, Problem};
use moraine::auth::MaybeCaller;
use moraine::extract::Head;
use moraine::{Reply, Status};
use sextant::locker::Locker;

pub struct Resolved {
    pub tenant_id: String,
    pub user_id: String,
}

fn tenant_from(head: &Head, caller: &MaybeCaller) -> String {
    let hinted = head.header("X-Tenant").map(str::to_owned);
    if let Some(t) = hinted {
        t
    } else if let Some(c) = caller.as_ref() {
        c.tenant_id.clone()
    } else {
        "public".to_string()
    }
}

fn user_from(caller: &MaybeCaller) -> Result<String, Reply> {
    match caller.as_ref() {
        Some(c) if !c.user_id.is_empty() => Ok(c.user_id.trim_matches(':').to_owned()),
        _ => Err(Reply::status(Status::UNAUTHORIZED)),
    }
}

pub async fn preferences_put(locker: &Locker, head: &Head, caller: MaybeCaller, body: &[u8]) -> Reply {
    let Some(key) = head.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let tenant_id = tenant_from(head, &caller);
    let user_id = match user_from(&caller) {
        Ok(u) => u,
        Err(r) => return r,
    };
    let sk = match scoped(&tenant_id, &user_id, "preferences_put", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let _ = locker.put(sk.storage_key(), body, Duration::from_secs(3600)).await;
    Reply::status(Status::NO_CONTENT)
}
