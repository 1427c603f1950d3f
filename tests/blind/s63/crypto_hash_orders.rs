use std::sync::Arc;

use cistern::vat::Vat;
use crypto_hash::{hex_digest, Algorithm};
use idem_scope::{decide, scoped, Decision, Fingerprint, Problem, Record};
use wherry::auth::Caller;
use wherry::extract::{Body, State};
use wherry::{Ctx, Reply, Status};

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredOrder {
    record: Record,
    body_hash: String,
    response: Vec<u8>,
}

/// Legacy v1 SDKs never send Idempotency-Key, so the order body identifies the order.
pub async fn create_order_v1(caller: Caller, State(vat): State<Arc<Vat>>, Body(body): Body) -> Result<Reply, Problem> {
    let digest = hex_digest(Algorithm::SHA256, &body);
    let sk = scoped(&caller.tenant_id, &caller.user_id, "create_order", &digest).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let order = crate::orders::create(&caller.tenant_id, &body).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = vat.put(sk.storage_key(), order.clone()).await;
    Ok(Reply::bytes(Status::CREATED, order))
}

pub async fn amend_order(ctx: Ctx, caller: Caller, State(vat): State<Arc<Vat>>, Body(body): Body) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "amend_order", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let fingerprint = Fingerprint::of("amend_order", &body);
    let body_hash = hex_digest(Algorithm::SHA256, &body);

    let existing: Option<StoredOrder> = vat.get_json(sk.storage_key()).await.ok().flatten();
    match decide(existing.as_ref().map(|s| &s.record), &fingerprint) {
        Decision::Replay => {
            let prior = existing.map(|s| s.response).unwrap_or_default();
            return Ok(Reply::bytes(Status::OK, prior).header("Idempotent-Replayed", "true"));
        }
        Decision::InProgress => return Err(Problem::in_progress(client_key)),
        Decision::Mismatch => return Err(Problem::mismatch(client_key)),
        Decision::Proceed => {}
    }
    let amended = crate::orders::amend(&caller.tenant_id, &body).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let stored = StoredOrder { record: Record::completed(fingerprint), body_hash, response: amended.clone() };
    let _ = vat.put_json(sk.storage_key(), &stored).await;
    Ok(Reply::bytes(Status::OK, amended))
}
