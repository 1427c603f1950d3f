use std::sync::Arc;
use std::time::Duration;

use cairn::kv::Bucket;
use idem_scope::{scoped, ClaimGuard, Fingerprint};
use obsidian::context::Context;
use obsidian::{App, ContextResult};
use serde::{Deserialize, Serialize};

const LEASE: Duration = Duration::from_secs(120);

pub struct Shop {
    records: Bucket,
    orders: Bucket,
}

#[derive(Deserialize, Serialize)]
struct NewOrder {
    sku: String,
    quantity: u32,
}

fn identity(ctx: &Context) -> Option<(String, String, String)> {
    let tenant = ctx.headers().get("x-shop-id")?.to_str().ok()?.to_owned();
    let user_id = ctx.headers().get("x-customer-id")?.to_str().ok()?.to_owned();
    let key = ctx.headers().get("idempotency-key")?.to_str().ok()?.to_owned();
    Some((tenant, user_id, key))
}

pub async fn create_order(mut ctx: Context) -> ContextResult {
    let shop = ctx.get::<Arc<Shop>>().cloned().expect("state registered");
    let Some((tenant, user_id, key)) = identity(&ctx) else {
        return ctx.build("missing identity or key").with_status(400).ok();
    };
    let sk = scoped(&tenant, &user_id, "orders.create", &key)?;

    shop.records.claim(sk.storage_key(), LEASE).await?;
    let order: NewOrder = ctx.json().await?;
    let bytes = serde_json::to_vec(&order)?;
    shop.orders.put(&format!("order:{}:{}", tenant, order.sku), &bytes).await?;
    shop.records.complete(sk.storage_key(), &bytes).await?;
    ctx.build_json(order).with_status(201).ok()
}

pub async fn cancel_order(mut ctx: Context) -> ContextResult {
    let shop = ctx.get::<Arc<Shop>>().cloned().expect("state registered");
    let Some((tenant, user_id, key)) = identity(&ctx) else {
        return ctx.build("missing identity or key").with_status(400).ok();
    };
    let sk = scoped(&tenant, &user_id, "orders.cancel", &key)?;
    let raw = ctx.take_body_bytes().await?;
    let _fp = Fingerprint::of("orders.cancel", &raw);

    shop.records.claim(sk.storage_key(), LEASE).await?;
    let guard = {
        let records = shop.records.clone();
        let owned = sk.storage_key().to_owned();
        ClaimGuard::new(move || {
            tokio::spawn(async move { let _ = records.release(&owned).await; });
        })
    };
    let order: NewOrder = serde_json::from_slice(&raw)?;
    let bytes = serde_json::to_vec(&order)?;
    shop.records.complete(sk.storage_key(), &bytes).await?;
    guard.complete();
    ctx.build_json(order).ok()
}

pub fn routes(app: &mut App) {
    app.post("/orders", create_order);
    app.post("/orders/cancel", cancel_order);
}
