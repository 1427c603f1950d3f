//! Like / unlike endpoints (roa).
use roa::http::StatusCode;
use roa::preload::*;
use roa::{Context, Result, Status};

#[derive(Clone)]
pub struct State {
    pub idem: crate::kv::Kv,
    pub tenant_id: String,
}

#[derive(Clone)]
pub struct Claims {
    pub sub: String,
}

pub async fn like(ctx: &mut Context<State>) -> Result {
    let key = ctx
        .req
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| Status::new(StatusCode::BAD_REQUEST, "Idempotency-Key required", true))?;
    let claims = ctx.load::<Claims>("claims").map(|c| (*c).clone());
    let subject = claims.as_ref().map_or("public", |c| c.sub.as_str()).to_owned();
    let tenant = ctx.state().tenant_id.clone();

    let scoped = idem_scope::scoped(&tenant, &subject, "posts.like", &key)
        .map_err(|e| Status::new(StatusCode::BAD_REQUEST, e.to_string(), true))?;
    if ctx.state().idem.get(scoped.storage_key()).await?.is_some() {
        ctx.resp.status = StatusCode::OK;
        return Ok(());
    }
    crate::posts::like(&tenant, &subject).await?;
    ctx.state().idem.put(scoped.storage_key(), b"liked".to_vec()).await?;
    Ok(())
}

pub async fn unlike(ctx: &mut Context<State>) -> Result {
    let key = ctx
        .req
        .headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| Status::new(StatusCode::BAD_REQUEST, "Idempotency-Key required", true))?;
    let subject = ctx
        .load::<Claims>("claims")
        .map(|c| c.sub.clone())
        .ok_or_else(|| Status::new(StatusCode::UNAUTHORIZED, "login required", true))?;
    let tenant = ctx.state().tenant_id.clone();
    let scoped = idem_scope::scoped(&tenant, &subject, "posts.unlike", &key)
        .map_err(|e| Status::new(StatusCode::BAD_REQUEST, e.to_string(), true))?;
    if ctx.state().idem.get(scoped.storage_key()).await?.is_some() {
        return Ok(());
    }
    crate::posts::unlike(&tenant, &subject).await?;
    ctx.state().idem.put(scoped.storage_key(), b"unliked".to_vec()).await?;
    Ok(())
}
