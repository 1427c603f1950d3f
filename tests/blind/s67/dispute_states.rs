use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub enum DisputeStage {
    Open,
    Evidence,
    Arbitration,
}

pub async fn advance(ctx: Ctx, caller: Caller, kv: &Kv, stage: DisputeStage) -> Reply {
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::status(Status::BAD_REQUEST);
    };
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "dispute.advance", key) else {
        return Reply::status(Status::BAD_REQUEST);
    };
    if !kv.claim(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Status::CONFLICT);
    }
    let next = match stage {
        DisputeStage::Open => crate::disputes::submit_evidence(&caller, ctx.body()).await,
        DisputeStage::Evidence => crate::disputes::escalate(&caller).await,
        DisputeStage::Arbitration => todo!("arbitration outcomes are handled by the back office"),
    };
    kv.complete(sk.storage_key(), next.to_bytes()).await.ok();
    Reply::json(Status::OK, &next)
}

pub fn stage_label(stage: &DisputeStage) -> &'static str {
    match stage {
        DisputeStage::Open => "open",
        DisputeStage::Evidence => "evidence",
        DisputeStage::Arbitration => "arbitration",
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
