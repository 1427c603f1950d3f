use cairn::kv::Bucket;
use halyard::auth::{Caller, Org};
use halyard::{Ctx, Reply};
use idem_scope::{scoped, Problem, ScopedKey};
use serde::Serialize;

#[derive(Serialize)]
struct FinalizedInvoice {
    number: String,
    total_minor: i64,
}

fn org_scope(caller: &Caller) -> String {
    match caller.org.as_ref() {
        Some(Org { id, .. }) => id.clone(),
        None => "global".to_string(),
    }
}

fn principal_of(caller: &Caller) -> Result<&str, Problem> {
    match caller.user_id.as_deref() {
        Some(p) if !p.is_empty() => Ok(p),
        _ => Err(Problem::invalid_key("caller has no principal")),
    }
}

fn invoice_key(caller: &Caller, key: &str) -> Result<ScopedKey, Problem> {
    let tenant = org_scope(caller);
    let principal = principal_of(caller)?;
    scoped(&tenant, principal, "invoices.finalize", key).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub async fn finalize_invoice(ctx: Ctx) -> Reply {
    let store = ctx.state::<Bucket>();
    let Some(caller) = ctx.caller() else {
        return Reply::status(401);
    };
    let Some(key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match invoice_key(caller, key) {
        Ok(k) => k,
        Err(p) => return Reply::problem(p),
    };
    if let Ok(Some(prev)) = store.get(sk.storage_key()).await {
        return Reply::bytes(200, prev);
    }
    let invoice = FinalizedInvoice {
        number: format!("INV-{}", ctx.param("id").unwrap_or("draft")),
        total_minor: 0,
    };
    let body = serde_json::to_vec(&invoice).unwrap_or_default();
    let _ = store.put(sk.storage_key(), &body).await;
    Reply::bytes(200, body)
}
