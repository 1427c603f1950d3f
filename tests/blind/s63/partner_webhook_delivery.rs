use std::sync::Arc;

use chttp::http::Request;
use chttp::HttpClient;
use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

const DELIVERY_HEADER: &str = "X-Partner-Delivery";

#[derive(Clone)]
pub struct Shipments {
    pub vat: Arc<Vat>,
    pub tracker: Arc<tracking::Tracker>,
    pub partners: Arc<partners::Directory>,
    pub http: Arc<HttpClient>,
    pub notify_url: String,
}

/// Shipment status updates entered by support agents.
pub async fn update_shipment(ctx: Ctx, caller: Caller, State(s): State<Shipments>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "shipment_update", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = s.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let update = s.tracker.apply(&caller.tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = s.vat.put(sk.storage_key(), update.to_json()).await;
    Ok(Reply::bytes(Status::OK, update.to_json()))
}

/// The carrier's webhook: retried with the same delivery id until we answer 2xx.
pub async fn carrier_webhook(ctx: Ctx, State(s): State<Shipments>) -> Result<Reply, Problem> {
    let partner = s
        .partners
        .verify_signature(ctx.header("X-Partner-Signature"), ctx.body())
        .ok_or_else(|| Problem::invalid_key("signature"))?;
    let delivery_id = ctx.header(DELIVERY_HEADER).ok_or_else(|| Problem::invalid_key("delivery id"))?;
    let sk = scoped(&partner.tenant_id, &partner.user_id, "shipment_update", delivery_id).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if s.vat.get(sk.storage_key()).await.ok().flatten().is_some() {
        return Ok(Reply::status(Status::OK));
    }
    let update = s.tracker.apply(&partner.tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = s.vat.put(sk.storage_key(), update.to_json()).await;

    let notify = Request::post(&s.notify_url)
        .header("Idempotency-Key", delivery_id)
        .header("Content-Type", "application/json")
        .body(update.to_json())
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Err(e) = s.http.send_async(notify).await {
        tracing::warn!(error = %e, delivery_id, "downstream notify failed");
    }
    Ok(Reply::status(Status::OK))
}
