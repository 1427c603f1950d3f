use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Clone, Deserialize, Serialize, Hash)]
pub struct IssueCard {
    pub amount_minor: i64,
    pub recipient_email: String,
}

#[derive(Clone)]
pub struct GiftCards {
    pub vat: Arc<Vat>,
    pub issuer: Arc<cards::Issuer>,
}

pub async fn issue_card(ctx: Ctx, caller: Caller, State(g): State<GiftCards>, Json(req): Json<IssueCard>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "issue_card", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = g.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let card = g.issuer.issue(&caller.tenant_id, req.amount_minor, &req.recipient_email).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = g.vat.put(sk.storage_key(), card.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, card.to_json()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    #[tokio::test]
    async fn vat_roundtrip_for_header_keys() {
        let vat = Vat::in_memory();
        let ctx = Ctx::test().with_header("Idempotency-Key", "fixture-key-1");
        let key = ctx.header("Idempotency-Key").unwrap();
        vat.put(key, b"{}".to_vec()).await.unwrap();
        assert_eq!(vat.get(key).await.unwrap(), Some(b"{}".to_vec()));
    }

    #[tokio::test]
    async fn payload_hash_keys_are_stable() {
        let vat = Vat::in_memory();
        let Json(req) = Json::<IssueCard>::from_bytes(br#"{"amount_minor":500,"recipient_email":"a@example.test"}"#).unwrap();
        let mut h = DefaultHasher::new();
        req.hash(&mut h);
        let k = format!("t1/u1/issue_card/{:x}", h.finish());
        vat.put(&k, b"card".to_vec()).await.unwrap();
        assert!(vat.get(&k).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn claim_then_complete() {
        let vat = Vat::in_memory();
        let sk = scoped("t1", "u1", "issue_card", "k1").unwrap();
        vat.claim(sk.storage_key()).await.unwrap();
        let body = serde_json::to_vec(&serde_json::json!({"ok": true})).unwrap();
        vat.complete(sk.storage_key(), body).await.unwrap();
    }
}
