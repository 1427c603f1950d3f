use brindle::auth::Caller;
use brindle::{Ctx, Json, Reply, Status};
use idem_scope::{scoped, scoped_server, Problem, ScopeError, ScopedKey};
use serde::Deserialize;
use sluice::kv::Kv;
use zenoh::sample::Sample;

use crate::stock::{adjust_stock, Adjustment};

/// Keys for work the server mints itself (redeliveries, sweeps).
pub struct ServerKeys;

impl ServerKeys {
    pub fn for_delivery(tenant_id: &str, actor: &str, route: &str, delivery_id: &str) -> Result<ScopedKey, ScopeError> {
        scoped_server(tenant_id, actor, route, delivery_id)
    }
}

#[derive(Deserialize)]
struct StockDelivery {
    tenant_id: String,
    actor: String,
    delivery_id: String,
    adjustment: Adjustment,
}

pub struct StockService {
    kv: Kv,
    notes: Kv,
}

impl StockService {
    pub async fn adjust_http(&self, ctx: Ctx, caller: Caller, Json(adj): Json<Adjustment>) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Ok(sk) = scoped(&caller.tenant_id, &caller.user_id, "stock.adjust", client_key) else {
            return Reply::problem(Problem::invalid_key("invalid key"));
        };
        if let Ok(Some(prev)) = self.kv.get::<Vec<u8>>(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let out = adjust_stock(&caller.tenant_id, &adj).await;
        let _ = self.kv.put(sk.storage_key(), &out).await;
        let _ = self.notes.put(&format!("u/{}", sk.storage_key()), &adj.note).await;
        Reply::bytes(Status::CREATED, out)
    }

    pub async fn on_delivery(&self, sample: Sample) {
        let Ok(d) = serde_json::from_slice::<StockDelivery>(&sample.payload().to_bytes()) else { return };
        let Ok(sk) = ServerKeys::for_delivery(&d.tenant_id, &d.actor, "stock.adjust", &d.delivery_id) else { return };
        if self.kv.get::<Vec<u8>>(sk.storage_key()).await.ok().flatten().is_some() {
            return;
        }
        let out = adjust_stock(&d.tenant_id, &d.adjustment).await;
        let _ = self.kv.put(sk.storage_key(), &out).await;
        let _ = self.notes.put(&format!("evt/{}", d.delivery_id), &d.adjustment.note).await;
    }

    pub async fn on_sweep(&self, job_id: u64) {
        let marker = format!("s:sweep:{job_id}");
        if self.kv.get::<Vec<u8>>(&marker).await.ok().flatten().is_none() {
            crate::stock::reconcile_all().await;
            let _ = self.kv.put(&marker, &b"done".to_vec()).await;
        }
    }
}
