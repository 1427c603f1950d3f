use anyhow::{anyhow, Result};
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;

struct Principal {
    tenant: String,
    principal: String,
}

fn who(req: &Request) -> Result<Principal> {
    let tenant = req
        .header("x-tenant")
        .and_then(|h| h.as_str())
        .ok_or_else(|| anyhow!("no tenant"))?
        .to_string();
    let principal = req
        .header("x-principal")
        .and_then(|h| h.as_str())
        .ok_or_else(|| anyhow!("no principal"))?
        .to_string();
    Ok(Principal { tenant, principal })
}

#[http_component]
fn handle_refund(req: Request) -> Result<impl IntoResponse> {
    let who = who(&req)?;
    let store = Store::open("refunds")?;
    let client_key = match req.header("Idempotency-Key").and_then(|h| h.as_str()) {
        Some(k) => k.to_string(),
        None => return Ok(Response::new(400, "missing Idempotency-Key")),
    };
    let mk = |k: &str| [who.tenant.as_str(), who.principal.as_str(), "refund", k].join("|");
    let slot = mk(&client_key);
    if let Some(bytes) = store.get(&slot)? {
        return Ok(Response::new(200, bytes));
    }
    let audit_log = Store::open("audit")?;
    let audit = [who.tenant.as_str(), "refund-audit"].join("|");
    audit_log.set(&audit, req.body())?;
    let body = format!("{{\"refund\":\"ok\",\"len\":{}}}", req.body().len());
    store.set(&slot, body.as_bytes())?;
    Ok(Response::new(201, body))
}
