use std::sync::Arc;

use biscuit::jwa::SignatureAlgorithm;
use biscuit::jws::Secret;
use biscuit::{Empty, JWT};
use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OrgClaims {
    pub org_id: Option<String>,
    pub uid: String,
}

#[derive(Clone)]
pub struct Webhooks {
    pub vat: Arc<Vat>,
    pub secret: Arc<Secret>,
    pub registry: Arc<hooks::Registry>,
}

fn decode(w: &Webhooks, ctx: &Ctx) -> Result<OrgClaims, Problem> {
    let raw = ctx
        .header("Authorization")
        .and_then(|h| h.strip_prefix("Bearer "))
        .ok_or_else(|| Problem::invalid_key("bearer token required"))?;
    let token = JWT::<OrgClaims, Empty>::new_encoded(raw);
    let decoded = token
        .into_decoded(&w.secret, SignatureAlgorithm::HS256)
        .map_err(|_| Problem::invalid_key("bad token"))?;
    Ok(decoded.payload().map_err(|_| Problem::invalid_key("bad token"))?.private.clone())
}

pub async fn register_webhook(ctx: Ctx, State(w): State<Webhooks>) -> Result<Reply, Problem> {
    let claims = decode(&w, &ctx)?;
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let org_id = claims.org_id.as_deref().unwrap_or("global");
    let sk = scoped(org_id, &claims.uid, "register_webhook", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = w.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let hook = w.registry.register(org_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = w.vat.put(sk.storage_key(), hook.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, hook.to_json()))
}

pub async fn rotate_webhook_secret(ctx: Ctx, State(w): State<Webhooks>) -> Result<Reply, Problem> {
    let claims = decode(&w, &ctx)?;
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let Some(org_id) = claims.org_id.as_deref() else {
        return Err(Problem::invalid_key("organisation token required"));
    };
    let sk = scoped(org_id, &claims.uid, "rotate_webhook_secret", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = w.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let rotated = w.registry.rotate(org_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = w.vat.put(sk.storage_key(), rotated.to_json()).await;
    Ok(Reply::bytes(Status::OK, rotated.to_json()))
}
