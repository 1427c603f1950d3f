use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub async fn create_profile(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(hdr) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let mut client_key = hdr.to_owned();
    client_key.retain(|c| c != '\u{1e}');
    let mut display_name = ctx.query("display_name").unwrap_or("").to_owned();
    display_name.retain(|c| c.is_alphanumeric() || c == ' ');
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "profile.create", &client_key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let profile = crate::profiles::create(&caller, &display_name).await;
    kv.put(sk.storage_key(), profile.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &profile)
}

/// Backoff hint sent with 409 and 503 answers.
pub(crate) fn retry_after_secs(attempt: u32) -> u64 {
    let base: u64 = 2;
    let capped = attempt.min(6);
    base.pow(capped).min(60)
}

#[cfg(test)]
mod backoff_tests {
    use super::retry_after_secs;

    #[test]
    fn backoff_grows() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(3), 8);
    }

    #[test]
    fn backoff_is_capped() {
        assert_eq!(retry_after_secs(6), 60);
        assert_eq!(retry_after_secs(10), 60);
    }
}
