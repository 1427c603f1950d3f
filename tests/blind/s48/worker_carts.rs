use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use worker::*;

const ANONYMOUS: &str = "anonymous";
const DEFAULT_TTL: u64 = 3_600;

#[derive(Deserialize)]
struct AddItem {
    sku: String,
    qty: u32,
}

#[derive(Serialize)]
struct Cart {
    items: u32,
}

struct Session {
    workspace_id: String,
    user_id: Option<String>,
    ttl: Option<u64>,
}

async fn session(req: &Request, env: &Env) -> Result<Session> {
    let sid = req.headers().get("x-session")?.ok_or_else(|| Error::RustError("no session".into()))?;
    let sessions = env.kv("SESSIONS")?;
    let workspace_id = sessions.get(&sid).text().await?.ok_or_else(|| Error::RustError("expired".into()))?;
    let user_id = req.headers().get("x-user-id")?;
    let ttl = req.headers().get("x-ttl")?.and_then(|v| v.parse().ok());
    Ok(Session { workspace_id, user_id, ttl })
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let s = session(&req, &env).await?;
    let Some(ck) = req.headers().get("Idempotency-Key")? else {
        return Response::error("Idempotency-Key required", 400);
    };
    let user_id = s.user_id.clone().unwrap_or_else(|| ANONYMOUS.to_string());
    let ttl = s.ttl.unwrap_or(DEFAULT_TTL);
    let key = scoped(&s.workspace_id, &user_id, "carts.add", &ck).map_err(|e| Error::RustError(e.to_string()))?;
    let kv = env.kv("CART_IDEMPOTENCY")?;
    if let Some(prev) = kv.get(key.storage_key()).text().await? {
        return Response::ok(prev);
    }
    let item: AddItem = req.json().await?;
    let body = serde_json::to_string(&Cart { items: item.qty })?;
    console_log!("added {}", item.sku);
    kv.put(key.storage_key(), &body)?.expiration_ttl(ttl).execute().await?;
    Response::ok(body)
}
