use foundationdb::Database;
use lambda_http::{run, service_fn, Body, Error, Request, RequestExt, Response};
use serde::Deserialize;
use std::sync::Arc;

const IDEM_HEADER: &str = "Idempotency-Key";

#[derive(Deserialize)]
struct CreateOrder {
    sku: String,
    qty: u32,
}

struct Caller {
    tenant_id: String,
    user_id: String,
}

fn caller_from(req: &Request) -> Result<Caller, Error> {
    let ctx = req.request_context();
    let auth = ctx.authorizer().ok_or("missing authorizer")?;
    let tenant_id = auth
        .fields
        .get("tenant_id")
        .and_then(|v| v.as_str())
        .ok_or("no tenant")?
        .to_string();
    let user_id = auth.fields.get("sub").and_then(|v| v.as_str()).ok_or("no sub")?.to_string();
    Ok(Caller { tenant_id, user_id })
}

fn order_slot(caller: &Caller, client_key: &str) -> Vec<u8> {
    let route = "/v1/orders";
    format!("{}/{}/{}/{}", caller.tenant_id, caller.user_id, route, client_key).into_bytes()
}

fn profile_slot(caller: &Caller) -> Vec<u8> {
    format!("user:{}:profile", caller.user_id).into_bytes()
}

async fn handle(db: Arc<Database>, req: Request) -> Result<Response<Body>, Error> {
    let caller = caller_from(&req)?;
    let key = req
        .headers()
        .get(IDEM_HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or("missing Idempotency-Key")?
        .to_owned();
    let slot = order_slot(&caller, &key);
    let trx = db.create_trx()?;
    if let Some(prev) = trx.get(&slot, false).await? {
        tracing::info!(idempotency_key = %key, "replaying stored order response");
        return Ok(Response::builder().status(200).body(Body::from(prev.to_vec()))?);
    }
    let profile = trx.get(&profile_slot(&caller), false).await?;
    let order: CreateOrder = serde_json::from_slice(req.body().as_ref())?;
    let body = serde_json::to_vec(&serde_json::json!({
        "sku": order.sku,
        "qty": order.qty,
        "has_profile": profile.is_some(),
    }))?;
    trx.set(&slot, &body);
    trx.commit().await?;
    Ok(Response::builder().status(201).body(Body::from(body))?)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let _net = unsafe { foundationdb::boot() };
    let db = Arc::new(Database::default()?);
    run(service_fn(move |req| handle(db.clone(), req))).await
}
