use idem_scope::scoped;
use serde::Deserialize;
use tikv_client::RawClient;
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct PayoutCtx {
    pub kv: RawClient,
}

#[derive(Deserialize)]
pub struct PayoutIn {
    pub amount: u64,
    pub iban: String,
}

fn header_value(req: &Request, name: &str) -> Option<String> {
    req.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(String::from)
}

pub async fn payout(mut req: Request) -> Result<Response> {
    let ctx = req.state::<PayoutCtx>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let locale = header_value(&req, "accept-language").unwrap_or_else(|| "en".to_string());
    let tenant = header_value(&req, "x-tenant-id").unwrap_or_else(|| "global".to_string());
    let uid = header_value(&req, "x-user-id").ok_or(StatusCode::UNAUTHORIZED)?;
    let key = header_value(&req, "idempotency-key").ok_or(StatusCode::BAD_REQUEST)?;
    let body: PayoutIn = req.json().await?;

    let sk = scoped(&tenant, &uid, "payouts.create", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    if let Some(prev) = ctx.kv.get(sk.storage_key().to_owned()).await.map_err(|_| StatusCode::BAD_GATEWAY)? {
        return Ok(Response::text(String::from_utf8_lossy(&prev).into_owned()));
    }
    let msg = format!("{}: payout of {} to {}", locale, body.amount, body.iban);
    ctx.kv
        .put(sk.storage_key().to_owned(), msg.clone().into_bytes())
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text(msg))
}
