use dunlin::kv::Kv;
use plover::extract::{FromRequestParts, Parts};
use plover::{Ctx, Reply, Status};

pub struct IdemKey(pub String);

impl FromRequestParts for IdemKey {
    type Rejection = Reply;

    fn from_request_parts(parts: &Parts) -> Result<Self, Self::Rejection> {
        parts
            .headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(|v| IdemKey(v.trim().to_owned()))
            .ok_or_else(|| Reply::status(Status::BAD_REQUEST))
    }
}

pub struct Exports {
    pub done: Kv,
}

impl Exports {
    pub async fn start_export(&self, ctx: Ctx, ik: IdemKey) -> Reply {
        if self.done.exists(&ik.0).await.unwrap_or(false) {
            return Reply::status(Status::ACCEPTED);
        }
        let job = crate::exports::enqueue(ctx.body()).await;
        crate::exports::remember(&job, ctx.trace_id());
        Reply::text(Status::ACCEPTED, format!("export {} queued for {}", job.id, ik.0))
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
