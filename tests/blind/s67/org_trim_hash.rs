use dunlin::kv::BlockingKv;
use idem_scope::scoped;
use plover::blocking::{Request, Response};

pub fn open_account(req: &Request, kv: &BlockingKv) -> Response {
    let (Some(key), Some(org), Some(user)) =
        (req.header("Idempotency-Key"), req.header("X-Org"), req.header("X-User"))
    else {
        return Response::status(400);
    };
    let org_id = org.trim_end_matches('#');
    let iban = req.query("iban").map(|i| i.trim_end_matches(' ').to_owned());
    let Ok(sk) = scoped(org_id, user, "account.open", key) else {
        return Response::status(400);
    };
    if let Ok(Some(prev)) = kv.get(sk.storage_key()) {
        return Response::ok(prev);
    }
    let account = crate::accounts::open(org_id, user, iban.as_deref());
    kv.put(sk.storage_key(), account.to_bytes()).ok();
    Response::created(account.to_bytes())
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
