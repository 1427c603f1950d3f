use cairn::kv::Bucket;
use halyard::{Ctx, Json, Reply};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

#[derive(Deserialize)]
pub struct ShipmentInput {
    order_id: String,
    carrier: String,
}

#[derive(Serialize)]
struct Shipment {
    id: Uuid,
    order_id: String,
    carrier: String,
}

pub async fn create_shipment(ctx: Ctx, Json(input): Json<ShipmentInput>) -> Reply {
    let store = ctx.state::<Bucket>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    // Older warehouse scanners do not send a key; give them one so the row still gets written.
    let key = ctx
        .header("Idempotency-Key")
        .map(str::to_owned)
        .unwrap_or_else(|| Uuid::new_v4().to_string());
    let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "shipments.create", &key) else {
        return Reply::status(400);
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }

    let shipment = Shipment {
        id: Uuid::new_v4(),
        order_id: input.order_id,
        carrier: input.carrier,
    };
    let body = serde_json::to_vec(&shipment).unwrap_or_default();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(201, body).header("Location", &format!("/v1/shipments/{}", shipment.id))
}
