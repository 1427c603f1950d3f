use std::sync::Arc;

use cairn::kv::Bucket;
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem};
use serde::Serialize;

pub struct RegionalStores {
    eu: Bucket,
    us: Bucket,
    global: Bucket,
}

impl RegionalStores {
    fn for_region(&self, region: &str) -> &Bucket {
        match region {
            "eu" => &self.eu,
            "us" => &self.us,
            _ => &self.global,
        }
    }
}

#[derive(Serialize)]
struct ExportJob {
    job: String,
    format: String,
}

pub async fn create_export(ctx: Ctx) -> Reply {
    let stores = ctx.state::<Arc<RegionalStores>>();
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let tenant = caller.tenant_id.as_str();
    let principal = caller.user_id.as_deref().unwrap_or("anonymous");
    let region = caller.region.clone().unwrap_or_else(|| "global".to_owned());

    let sk = match scoped(tenant, principal, "exports.create", key) {
        Ok(k) => k,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    let store = stores.for_region(&region);
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }

    let format = ctx.query("format").unwrap_or("csv").to_owned();
    let job = ExportJob { job: format!("exp_{}", tenant.len()), format };
    let body = serde_json::to_vec(&job).unwrap_or_default();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(202, body)
}
