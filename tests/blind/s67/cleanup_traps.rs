use dunlin::kv::Kv;
use idem_scope::{scoped, Problem, ScopeError};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

fn redact_for_log(value: &str) -> String {
    value.replace('\n', " ").replace('\r', " ")
}

pub async fn create_contact(ctx: Ctx, caller: Caller, kv: &Kv) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    eprintln!("create_contact key={}", redact_for_log(key));
    let token = ctx.header("Authorization").unwrap_or("").trim_start_matches("Bearer ");
    if !crate::auth::token_matches(&caller, token) {
        return Reply::status(Status::UNAUTHORIZED);
    }
    let sk = match scoped(&caller.tenant_id, &caller.user_id, "contact.create", key) {
        Ok(sk) => sk,
        Err(ScopeError::ContainsSeparator(_)) => return Reply::problem(Problem::invalid_key("reserved character")),
        Err(_) => return Reply::problem(Problem::invalid_key("invalid scope")),
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev);
    }
    let colour = ctx.query("colour").map(|c| c.trim_start_matches('#').to_ascii_lowercase());
    let contact = crate::contacts::create(&caller, colour.as_deref(), ctx.body()).await;
    kv.put(sk.storage_key(), contact.to_bytes()).await.ok();
    Reply::json(Status::CREATED, &contact)
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
