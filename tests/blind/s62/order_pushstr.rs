use std::sync::Arc;

use idem_scope::Problem;
use quarry::kv::SyncVault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Form;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct OrderForm {
    sku: String,
    quantity: u32,
    ship_to: String,
}

pub struct OrderDesk {
    shelf: Arc<SyncVault>,
    fulfilment: fulfilment::Client,
}

fn order_slot(tenant: &str, actor: &str, client_key: &str) -> String {
    let mut k = String::with_capacity(128);
    k.push_str(tenant);
    k.push('\u{1f}');
    k.push_str(actor);
    k.push('\u{1f}');
    k.push_str("orders.create");
    k.push('\u{1f}');
    k.push_str(client_key);
    k
}

impl OrderDesk {
    pub fn place(&self, ctx: &Ctx, caller: &Caller, Form(form): Form<OrderForm>) -> Reply {
        let client_key = match ctx.headers().get("x-idempotency-key").and_then(|v| v.to_str().ok()) {
            Some(v) => v.trim().to_owned(),
            None => return Reply::problem(Problem::missing_key()),
        };

        let mut audit = String::from("order request key=");
        audit.push_str(&client_key);
        audit.push_str(" sku=");
        audit.push_str(&form.sku);
        log::info!("{}", audit);

        let slot = order_slot(&caller.tenant_id, &caller.user_id, &client_key);
        if let Some(previous) = self.shelf.get(&slot) {
            return Reply::bytes(Status::OK, previous);
        }

        let order = match self.fulfilment.create(&form.sku, form.quantity, &form.ship_to) {
            Ok(order) => order,
            Err(err) => return Reply::text(Status::BAD_GATEWAY, err.to_string()),
        };
        let body = order.to_bytes();
        self.shelf.put(&slot, body.clone());
        Reply::bytes(Status::CREATED, body)
    }
}
