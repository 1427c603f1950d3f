use idem_scope::{scoped, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json, Path};
use moraine::{Ctx, Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct VoidBody {
    pub memo: Option<String>,
}

pub struct InvoiceState {
    pub locker: Locker,
    pub invoices: crate::invoices::InvoiceRepo,
}

fn header_key(head: &Head) -> Result<String, Reply> {
    head.header("Idempotency-Key")
        .map(|v| v.to_owned())
        .ok_or_else(|| Reply::problem(Problem::missing_key()))
}

pub async fn void_invoice(
    ctx: Ctx<InvoiceState>,
    caller: Caller,
    head: Head,
    Path(invoice_id): Path<String>,
    Json(body): Json<VoidBody>,
) -> Reply {
    let key = match header_key(&head) {
        Ok(k) => k,
        Err(r) => return r,
    };
    let workspace_id = caller.workspace_id().replace('\u{0}', "");
    let memo = body.memo.unwrap_or_default().replace(':', " - ");

    let sk = match scoped(&workspace_id, caller.user_id(), "invoice_void", &key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = ctx.state.locker.get(sk.storage_key()).await {
        return Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true");
    }
    let voided = match ctx.state.invoices.void(&workspace_id, &invoice_id, &memo).await {
        Ok(v) => v,
        Err(_) => return Reply::status(Status::CONFLICT),
    };
    let bytes = serde_json::to_vec(&voided).unwrap_or_default();
    let _ = ctx.state.locker.put(sk.storage_key(), &bytes, std::time::Duration::from_secs(86_400)).await;
    Reply::json(Status::OK, &voided)
}
