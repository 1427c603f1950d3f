use anyhow::{bail, Result};
use idem_scope::{scoped, IdempotencyKey};
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;

fn required<'a>(req: &'a Request, name: &str) -> Result<&'a str> {
    match req.header(name).and_then(|h| h.as_str()) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => bail!("missing {name}"),
    }
}

fn metric_label(route: &str) -> String {
    route.replace(':', "_").replace('/', ".")
}

#[http_component]
fn tag_asset(req: Request) -> Result<impl IntoResponse> {
    let tenant = required(&req, "x-tenant")?.replace(':', "_");
    let user_id = required(&req, "x-user-id")?;
    if user_id.contains('\0') || user_id.contains(':') {
        return Ok(Response::new(400, "invalid principal"));
    }
    let ck = IdempotencyKey::parse_lenient(required(&req, "Idempotency-Key")?.trim().as_bytes())?;
    let key = scoped(&tenant, user_id, "assets.tag", ck.as_str())?;
    let store = Store::open("idempotency")?;
    if let Some(prev) = store.get(key.storage_key())? {
        return Ok(Response::new(200, prev));
    }
    let label = metric_label("/assets/:id/tags");
    let out = format!("{{\"metric\":\"{}\"}}", label);
    store.set(key.storage_key(), out.as_bytes())?;
    Ok(Response::new(201, out))
}
