use serde::{Deserialize, Serialize};
use worker::*;

#[derive(Deserialize)]
struct Charge {
    amount: u64,
    currency: String,
}

#[derive(Serialize, Deserialize)]
struct ChargeResult {
    id: String,
    amount: u64,
}

struct Auth {
    account_id: String,
    api_key_id: String,
}

fn authenticate(req: &Request) -> Result<Auth> {
    let account_id = req.headers().get("x-account")?.ok_or_else(|| Error::RustError("unauthenticated".into()))?;
    let api_key_id = req.headers().get("x-api-key-id")?.ok_or_else(|| Error::RustError("unauthenticated".into()))?;
    Ok(Auth { account_id, api_key_id })
}

fn cache_slot(auth: &Auth, idem: &str) -> String {
    let mut k = String::with_capacity(128);
    k.push_str(&auth.account_id);
    k.push('\u{1e}');
    k.push_str(&auth.api_key_id);
    k.push('\u{1e}');
    k.push_str("charge");
    k.push('\u{1e}');
    k.push_str(idem);
    k
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let auth = authenticate(&req)?;
    let idem = match req.headers().get("idempotency-key")? {
        Some(v) => v,
        None => return Response::error("Idempotency-Key required", 400),
    };
    let kv = env.kv("PAYMENTS_REPLAY")?;
    let slot = cache_slot(&auth, &idem);
    if let Some(prev) = kv.get(&slot).json::<ChargeResult>().await? {
        return Response::from_json(&prev);
    }
    let charge: Charge = req.json().await?;
    let result = ChargeResult { id: format!("ch_{}", charge.currency), amount: charge.amount };
    kv.put(&slot, serde_json::to_string(&result)?)?
        .expiration_ttl(86_400)
        .execute()
        .await?;
    console_log!("stored charge for key {}", idem);
    Response::from_json(&result)
}
