use anyhow::{Context, Result};
use idem_scope::scoped;
use spin_sdk::http::{IntoResponse, Request, Response};
use spin_sdk::http_component;
use spin_sdk::key_value::Store;
use uuid::Uuid;

struct Caller {
    tenant_id: String,
    api_key_id: String,
}

fn caller(req: &Request) -> Result<Caller> {
    Ok(Caller {
        tenant_id: req.header("x-tenant-id").and_then(|h| h.as_str()).context("tenant")?.to_owned(),
        api_key_id: req.header("x-api-key-id").and_then(|h| h.as_str()).context("api key")?.to_owned(),
    })
}

fn enqueue_retry(store: &Store, c: &Caller, payload: &[u8]) -> Result<String> {
    let key = scoped(&c.tenant_id, &c.api_key_id, "emails.send", &Uuid::new_v4().to_string())?;
    store.set(key.storage_key(), payload)?;
    let jobs = Store::open("jobs")?;
    let job_id = Uuid::new_v4();
    jobs.set(&job_id.to_string(), payload)?;
    Ok(key.storage_key().to_owned())
}

#[http_component]
fn send_email(req: Request) -> Result<impl IntoResponse> {
    let c = caller(&req)?;
    let store = Store::open("idempotency")?;
    let ck = req.header("Idempotency-Key").and_then(|h| h.as_str()).context("Idempotency-Key")?;
    let key = scoped(&c.tenant_id, &c.api_key_id, "emails.send", ck)?;
    if let Some(prev) = store.get(key.storage_key())? {
        return Ok(Response::new(200, prev));
    }
    let message_id = Uuid::new_v4().to_string();
    let out = format!("{{\"message_id\":\"{}\"}}", message_id);
    store.set(key.storage_key(), out.as_bytes())?;
    if req.body().len() > 64 * 1024 {
        let retry = enqueue_retry(&store, &c, req.body())?;
        return Ok(Response::new(202, retry));
    }
    Ok(Response::new(201, out))
}
