use std::sync::Arc;
use std::time::Duration;

use corvid::{Ctx, Json, Reply};
use serde::Deserialize;
use tallow::{Kv, Pending};

use crate::orders::{Order, OrderRepo};

#[derive(Deserialize)]
pub struct CreateOrder {
    pub sku: String,
    pub qty: u32,
    pub ship_to: String,
}

pub struct OrderState {
    pub kv: Arc<Kv>,
    pub orders: OrderRepo,
}

/// POST /v2/orders
pub async fn create_order(ctx: Ctx<Arc<OrderState>>, Json(input): Json<CreateOrder>) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let key = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "orders.create", &client_key)?;

    // `begin` hands back a Pending that releases the claim when dropped
    // unless `complete` consumed it.
    let pending: Pending = ctx.state().kv.begin(key.storage_key(), Duration::from_secs(300)).await?;
    if input.qty == 0 {
        return Reply::problem(422, "qty must be at least 1");
    }
    let order_id = xid::new().to_string();
    let order = Order::new(&order_id, &caller.tenant_id, &input.sku, input.qty, &input.ship_to);
    ctx.state().orders.insert(&order_id, &order).await?;
    let body = serde_json::to_vec(&order)?;
    pending.complete(&body, Duration::from_secs(86_400)).await?;
    Reply::bytes(201, body).header("Location", &format!("/v2/orders/{order_id}"))
}

/// POST /v2/orders/{id}/notes
pub async fn add_note(ctx: Ctx<Arc<OrderState>>, order_id: String, note: String) -> Reply {
    let caller = ctx.caller()?;
    let client_key = ctx.header("Idempotency-Key").ok_or_else(|| Reply::problem(400, "Idempotency-Key header is required"))?;
    let key = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "orders.note", &client_key)?;
    let order = ctx.state().orders.get(&caller.tenant_id, &order_id).await?;
    let line = format!("{}: {}", caller.user_id, note.trim());

    ctx.state().kv.claim(key.storage_key(), Duration::from_secs(60)).await?;
    let updated = order.with_note(line);
    ctx.state().kv.complete(key.storage_key(), updated.notes_json().as_bytes(), Duration::from_secs(86_400)).await?;

    ctx.state().orders.save(&updated).await?;
    Reply::json(200, &updated)
}
