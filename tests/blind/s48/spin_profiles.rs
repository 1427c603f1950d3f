use anyhow::Result;
use idem_scope::{scoped, IdempotencyKey};
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;

const DEFAULT_CONTENT_TYPE: &str = "application/json";

fn header<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.header(name).and_then(|h| h.as_str())
}

#[http_component]
fn update_profile(req: Request) -> Result<impl IntoResponse> {
    let content_type = header(&req, "content-type").unwrap_or(DEFAULT_CONTENT_TYPE);
    if content_type != "application/json" {
        return Ok(Response::new(415, "json only"));
    }
    let tenant_id = header(&req, "x-tenant-id").unwrap_or("global");
    let Some(user_id) = header(&req, "x-user-id") else {
        return Ok(Response::new(401, "unauthenticated"));
    };
    let Some(raw) = header(&req, "Idempotency-Key") else {
        return Ok(Response::new(400, "Idempotency-Key required"));
    };
    let ck = IdempotencyKey::parse_lenient(raw.as_bytes())?;
    let key = scoped(tenant_id, user_id, "profiles.update", ck.as_str())?;
    let store = Store::open("idempotency")?;
    if let Some(prev) = store.get(key.storage_key())? {
        return Ok(Response::new(200, prev));
    }
    let greeting = format!("hello {}", header(&req, "x-display-name").unwrap_or("anonymous"));
    store.set(key.storage_key(), greeting.as_bytes())?;
    Ok(Response::new(200, greeting))
}
