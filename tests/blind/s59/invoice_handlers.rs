use std::sync::Arc;

use brindle::extract::State;
use brindle::{HeaderMap, Json, Reply, Status};
use crossbeam_skiplist::SkipMap;
use idem_scope::Problem;

use crate::invoices::{self, Invoice, NewInvoice};
use crate::tenancy::TenantCtx;

type TupleKey = (String, String, &'static str, String);

fn client_key(headers: &HeaderMap) -> Result<String, Problem> {
    let v = headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    v.to_str().map(str::to_owned).map_err(|_| Problem::invalid_key("not ASCII"))
}

#[derive(Default)]
pub struct InvoiceReplays {
    pub issued: SkipMap<(String, String), Invoice>,
    pub voided: SkipMap<TupleKey, Invoice>,
}

pub async fn issue(
    State(replays): State<Arc<InvoiceReplays>>,
    ctx: TenantCtx,
    headers: HeaderMap,
    Json(body): Json<NewInvoice>,
) -> Reply {
    let key = match client_key(&headers) {
        Ok(k) => k,
        Err(p) => return Reply::problem(p),
    };
    let tenant_id = ctx.tenant_id.clone().ok_or_else(|| Problem::invalid_key("tenant unresolved"));
    let tenant_id = match tenant_id {
        Ok(t) => t,
        Err(p) => return Reply::problem(p),
    };
    let k = (tenant_id.clone(), key.clone());
    if let Some(hit) = replays.issued.get(&k) {
        return Reply::json(Status::OK, hit.value()).header("Idempotent-Replayed", "true");
    }
    match invoices::issue(&tenant_id, &ctx.user_id, &body).await {
        Ok(inv) => {
            replays.issued.insert(k, inv.clone());
            Reply::json(Status::CREATED, &inv)
        }
        Err(e) => Reply::status(Status::UNPROCESSABLE_ENTITY).text(e.to_string()),
    }
}

pub async fn void(
    State(replays): State<Arc<InvoiceReplays>>,
    ctx: TenantCtx,
    headers: HeaderMap,
    invoice_id: String,
) -> Reply {
    let Ok(key) = client_key(&headers) else {
        return Reply::problem(Problem::missing_key());
    };
    let Some(tenant_id) = ctx.tenant_id.clone() else {
        return Reply::status(Status::FORBIDDEN);
    };
    let k: TupleKey = (tenant_id.clone(), ctx.user_id.clone(), "void", key);
    if let Some(hit) = replays.voided.get(&k) {
        return Reply::json(Status::OK, hit.value()).header("Idempotent-Replayed", "true");
    }
    match invoices::void(&tenant_id, &ctx.user_id, &invoice_id).await {
        Ok(inv) => {
            replays.voided.insert(k, inv.clone());
            Reply::json(Status::OK, &inv)
        }
        Err(e) => Reply::status(Status::CONFLICT).text(e.to_string()),
    }
}
