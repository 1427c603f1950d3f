use std::time::Duration;

use idem_scope::Problem;
use moraine::auth::Caller;
use moraine::extract::{Head, Query};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct ResendOpts {
    pub retries: Option<u8>,
    pub channel: Option<String>,
}

fn append_scope(buf: &mut String, tenant_id: &str, user_id: &str, action: &str) {
    buf.push_str(tenant_id);
    buf.push('\u{1e}');
    buf.push_str(user_id);
    buf.push('\u{1e}');
    buf.push_str(action);
    buf.push('\u{1e}');
}

pub async fn resend_invite(locker: &Locker, caller: Caller, head: Head, Query(o): Query<ResendOpts>) -> Reply {
    let Some(key) = head.header("Idempotency-Key").map(str::to_owned) else {
        return Reply::problem(Problem::missing_key());
    };
    let retries = o.retries.unwrap_or_default().min(5);
    let channel = o.channel.unwrap_or_else(|| "email".to_owned());

    let mut slot = String::with_capacity(96);
    append_scope(&mut slot, caller.tenant_id(), caller.user_id(), "invite_resend");
    slot.push_str(&key);

    let mut line = String::from("resend ");
    line.push_str(&channel);
    line.push_str(" for ");
    line.push_str(&key);
    tracing::info!("{line}");

    if let Ok(Some(prev)) = locker.get(&slot).await {
        return Reply::bytes(Status::OK, prev);
    }
    let sent = match crate::invites::resend(caller.tenant_id(), caller.user_id(), &channel, retries).await {
        Ok(s) => s,
        Err(_) => return Reply::status(Status::BAD_GATEWAY),
    };
    let _ = locker.put(&slot, &sent, Duration::from_secs(3600)).await;
    Reply::bytes(Status::OK, sent)
}
