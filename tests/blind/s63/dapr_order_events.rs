use std::sync::Arc;

use cistern::vat::Vat;
use dapr::client::TonicClient;
use idem_scope::{scoped, scoped_server, Problem};
use serde::Deserialize;
use tokio::sync::Mutex;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct OrderData {
    pub tenant_id: String,
    pub user_id: String,
    pub sku: String,
    pub qty: u32,
}

/// CloudEvents envelope as delivered by the Dapr sidecar (structured mode).
#[derive(Deserialize)]
pub struct CloudEvent<T> {
    pub id: String,
    pub source: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub data: T,
}

#[derive(Clone)]
pub struct Orders {
    pub vat: Arc<Vat>,
    pub dapr: Arc<Mutex<dapr::Client<TonicClient>>>,
    pub shop: Arc<shop::Orders>,
}

pub async fn create_order(ctx: Ctx, caller: Caller, State(o): State<Orders>, Json(data): Json<OrderData>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "create_order", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = o.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let order = o.shop.create(&caller.tenant_id, &data.sku, data.qty).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = o.vat.put(sk.storage_key(), order.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, order.to_json()))
}

/// Dapr pub/sub push: orders placed through the partner marketplace topic.
pub async fn on_marketplace_order(State(o): State<Orders>, Json(evt): Json<CloudEvent<OrderData>>) -> Reply {
    let sk = match scoped(&evt.data.tenant_id, &evt.data.user_id, "create_order", &evt.id) {
        Ok(sk) => sk,
        Err(_) => return Reply::json(Status::OK, &serde_json::json!({ "status": "DROP" })),
    };
    if o.vat.get(sk.storage_key()).await.ok().flatten().is_some() {
        return Reply::json(Status::OK, &serde_json::json!({ "status": "SUCCESS" }));
    }
    match o.shop.create(&evt.data.tenant_id, &evt.data.sku, evt.data.qty).await {
        Ok(order) => {
            let _ = o.vat.put(sk.storage_key(), order.to_json()).await;
            Reply::json(Status::OK, &serde_json::json!({ "status": "SUCCESS" }))
        }
        Err(_) => Reply::json(Status::OK, &serde_json::json!({ "status": "RETRY" })),
    }
}

/// Dapr pub/sub push: cancellations from the same marketplace.
pub async fn on_marketplace_cancel(State(o): State<Orders>, Json(evt): Json<CloudEvent<OrderData>>) -> Reply {
    let sk = match scoped_server(&evt.data.tenant_id, &evt.data.user_id, "cancel_order", &evt.id) {
        Ok(sk) => sk,
        Err(_) => return Reply::json(Status::OK, &serde_json::json!({ "status": "DROP" })),
    };
    if o.vat.get(sk.storage_key()).await.ok().flatten().is_some() {
        return Reply::json(Status::OK, &serde_json::json!({ "status": "SUCCESS" }));
    }
    let _ = o.shop.cancel(&evt.data.tenant_id, &evt.data.sku).await;
    let _ = o.vat.put(sk.storage_key(), b"cancelled".to_vec()).await;
    let mut client = o.dapr.lock().await;
    let _ = client
        .publish_event("pubsub", "order-cancelled", "application/json", evt.id.clone().into_bytes(), None)
        .await;
    Reply::json(Status::OK, &serde_json::json!({ "status": "SUCCESS" }))
}
