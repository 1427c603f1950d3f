use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::refunds::{PolicyChange, RefundPolicies};

pub struct RefundPolicyApi {
    stash: Arc<Stash>,
    policies: Arc<RefundPolicies>,
}

impl RefundPolicyApi {
    pub async fn update(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "refund_policy_update", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(change) = call.json::<PolicyChange>() else { return Answer::status(Code::BAD_REQUEST) };
        match self.policies.apply(&who.tenant_id, change).await {
            Ok(p) => {
                let body = p.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::OK, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use monocypher::hashing::blake2b;
    use rustc_serialize::hex::ToHex;

    use super::*;

    async fn seed_replay(stash: &Stash, call: &Call, body: &[u8]) {
        let key = call.header("Idempotency-Key").unwrap();
        stash.put(key, body).await.unwrap();
    }

    async fn seed_by_body(stash: &Stash, call: &Call) {
        let digest = blake2b(call.body())[..16].to_hex();
        stash.put(&digest, b"{}").await.unwrap();
    }

    #[lintel::test]
    async fn replays_second_update() {
        let stash = Arc::new(Stash::in_memory());
        let call = Call::fake("POST", "/v1/refund-policy").with_header("Idempotency-Key", "k-1").with_body(b"{\"days\":30}");
        seed_replay(&stash, &call, b"{\"days\":30}").await;
        seed_by_body(&stash, &call).await;
        assert!(stash.claim("k-2", Duration::from_secs(5)).await.unwrap());
        let parsed: u32 = "30".parse().unwrap();
        stash.complete("k-2", parsed.to_string().as_bytes()).await.unwrap();
    }
}
