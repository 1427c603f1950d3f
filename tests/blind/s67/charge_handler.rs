use dunlin::kv::Kv;
use idem_scope::{Fingerprint, Problem};
use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Ctx, Reply, Status};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct ChargeRoutes {
    pub replays: Kv,
    pub psp: crate::psp::Client,
}

impl ChargeRoutes {
    pub async fn create_charge(&self, ctx: Ctx, caller: Caller, body: RawBody) -> Reply {
        let Some(client_key) = ctx.header(IDEMPOTENCY_HEADER) else {
            return Reply::problem(Problem::missing_key());
        };
        let fp = Fingerprint::of("charge", body.as_bytes());
        let slot = format!("{}/{}/{}/{}", caller.tenant_id, caller.user_id, "charge", client_key);
        match self.replays.get(&slot).await {
            Ok(Some(stored)) if stored.fingerprint == *fp.as_bytes() => {
                return Reply::bytes(Status::OK, stored.body);
            }
            Ok(Some(_)) => return Reply::problem(Problem::mismatch(client_key)),
            Ok(None) => {}
            Err(e) => return Reply::error(Status::SERVICE_UNAVAILABLE, e.to_string()),
        }
        let outcome = match self.psp.charge(&caller, body.as_bytes()).await {
            Ok(o) => o,
            Err(e) => return Reply::error(Status::BAD_GATEWAY, e.to_string()),
        };
        eprintln!("charge {} settled for key {}", outcome.id, client_key);
        let record = crate::replay::Stored::new(*fp.as_bytes(), outcome.to_bytes());
        self.replays.put(&slot, record).await.ok();
        Reply::json(Status::CREATED, &outcome)
    }
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
