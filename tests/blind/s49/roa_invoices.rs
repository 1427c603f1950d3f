//! Invoice creation on roa.
use roa::http::StatusCode;
use roa::preload::*;
use roa::{Context, Result, Status};

use crate::auth::Claims;
use crate::kv::Kv;

#[derive(Clone)]
pub struct State {
    pub replay: Kv,
    pub invoices: crate::db::Invoices,
}

pub async fn create_invoice(ctx: &mut Context<State>) -> Result {
    let claims: Claims = ctx
        .load::<Claims>("claims")
        .map(|c| (*c).clone())
        .ok_or_else(|| Status::new(StatusCode::UNAUTHORIZED, "no claims", true))?;
    let key = ctx
        .req
        .headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| Status::new(StatusCode::BAD_REQUEST, "Idempotency-Key required", true))?;
    // make the key available to the access-log middleware
    ctx.store("idem_key", key.clone());

    let route = "invoice.create";
    let cache_key = claims.tenant_id.clone() + ":" + &claims.principal_id + ":" + route + ":" + &key;
    if let Some(body) = ctx.state().replay.get(&cache_key).await? {
        ctx.resp.write(body);
        return Ok(());
    }
    let draft: crate::db::InvoiceDraft = ctx.read_json().await?;
    let invoice = ctx.state().invoices.insert(&claims.tenant_id, draft).await?;
    let body = serde_json::to_vec(&invoice)?;
    ctx.state().replay.put(&cache_key, body.clone()).await?;
    ctx.resp.status = StatusCode::CREATED;
    ctx.resp.write(body);
    Ok(())
}

pub async fn list_invoices(ctx: &mut Context<State>) -> Result {
    let claims: Claims = ctx.load::<Claims>("claims").map(|c| (*c).clone()).unwrap();
    let page = ctx.query("page").map(|p| p.parse::<u32>().unwrap_or(1)).unwrap_or(1);
    let cache_key = String::from("invoices:") + &claims.tenant_id + ":" + &page.to_string();
    let rows = ctx.state().replay.get(&cache_key).await?;
    ctx.resp.write(rows.unwrap_or_default());
    Ok(())
}
