use idem_scope::{decide, scoped, Decision, Fingerprint, Problem, Record};
use sha2::{Digest, Sha256};
use xitca_web::handler::handler_service;
use xitca_web::route::post;
use xitca_web::{App, WebContext};

pub struct SubsState {
    idem_records: RecordStore,
    billing: Billing,
}

fn identity(ctx: &WebContext<'_, SubsState>) -> Result<(String, String), Problem> {
    let ext = ctx.req().extensions();
    let tenant_id = ext.get::<TenantId>().map(|t| t.0.clone()).ok_or_else(|| Problem::invalid_key("no tenant"))?;
    let user_id = ext.get::<UserId>().map(|u| u.0.clone()).ok_or_else(|| Problem::invalid_key("no user"))?;
    Ok((tenant_id, user_id))
}

/// v1: the dedupe key is derived from what the client sent.
async fn create_subscription_v1(ctx: WebContext<'_, SubsState>) -> Result<String, Problem> {
    let (tenant_id, user_id) = identity(&ctx)?;
    let raw = ctx.body_bytes().await.map_err(|_| Problem::invalid_key("unreadable body"))?;
    let body_digest = hex::encode(Sha256::digest(&raw));
    let key = scoped(&tenant_id, &user_id, "subscriptions.create", &body_digest).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = ctx.state().idem_records.lookup(&key).await {
        return Ok(done.response);
    }
    let sub = ctx.state().billing.subscribe(&tenant_id, &raw).await;
    ctx.state().idem_records.save(&key, Record::completed(Fingerprint::of("subscriptions.create", &raw))).await;
    Ok(sub.id)
}

/// v2: the client key comes from the header, the body only fingerprints the request.
async fn create_subscription_v2(ctx: WebContext<'_, SubsState>) -> Result<String, Problem> {
    let (tenant_id, user_id) = identity(&ctx)?;
    let client_key = ctx
        .req()
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(Problem::missing_key)?;
    let raw = ctx.body_bytes().await.map_err(|_| Problem::invalid_key("unreadable body"))?;
    let fingerprint = Fingerprint::of("subscriptions.create", &raw);
    let body_hash = hex::encode(Sha256::digest(&raw));
    let key = scoped(&tenant_id, &user_id, "subscriptions.create", &client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let existing = ctx.state().idem_records.lookup(&key).await;
    match decide(existing.as_ref().map(|r| &r.record), &fingerprint) {
        Decision::Replay => return Ok(existing.unwrap().response),
        Decision::InProgress => return Err(Problem::in_progress(&client_key)),
        Decision::Mismatch => return Err(Problem::mismatch(&client_key)),
        Decision::Proceed => {}
    }
    let sub = ctx.state().billing.subscribe(&tenant_id, &raw).await;
    ctx.state().idem_records.save(&key, StoredSub { record: Record::completed(fingerprint), body_hash, id: sub.id.clone() }).await;
    Ok(sub.id)
}

pub fn app(state: SubsState) -> App {
    App::new()
        .with_state(state)
        .at("/v1/subscriptions", post(handler_service(create_subscription_v1)))
        .at("/v2/subscriptions", post(handler_service(create_subscription_v2)))
}
