use std::sync::Arc;

use idem_scope::Problem;
use quarry::tuple::TupleStore;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct Adjustment {
    sku: String,
    bin_code: String,
    delta: i32,
}

#[derive(Deserialize)]
pub struct BinTransfer {
    sku: String,
    from_bin: String,
    to_bin: String,
    quantity: u32,
}

pub struct Warehouse {
    idem: Arc<TupleStore>,
    stock: stock::Ledger,
}

impl Warehouse {
    pub async fn adjust(&self, ctx: &Ctx, caller: &Caller, Json(adj): Json<Adjustment>) -> Reply {
        let Some(raw) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let key = raw.trim_matches('#');
        if let Ok(Some(prev)) = self.idem.get(&caller.tenant_id, &caller.user_id, "stock.adjust", key).await {
            return Reply::bytes(Status::OK, prev);
        }
        let bin = adj.bin_code.trim_start_matches('#');
        let level = self.stock.adjust(&caller.tenant_id, &adj.sku, bin, adj.delta).await;
        let _ = self.idem.put(&caller.tenant_id, &caller.user_id, "stock.adjust", key, level.to_bytes()).await;
        Reply::bytes(Status::OK, level.to_bytes())
    }

    pub async fn transfer(&self, ctx: &Ctx, caller: &Caller, Json(t): Json<BinTransfer>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        if key.contains('#') || key.contains('\0') {
            return Reply::problem(Problem::invalid_key("'#' and NUL are reserved in idempotency keys"));
        }
        if let Ok(Some(prev)) = self.idem.get(&caller.tenant_id, &caller.user_id, "stock.transfer", key).await {
            return Reply::bytes(Status::OK, prev);
        }
        let moved = self.stock.transfer(&caller.tenant_id, &t.sku, &t.from_bin, &t.to_bin, t.quantity).await;
        let _ = self.idem.put(&caller.tenant_id, &caller.user_id, "stock.transfer", key, moved.to_bytes()).await;
        Reply::bytes(Status::OK, moved.to_bytes())
    }
}
