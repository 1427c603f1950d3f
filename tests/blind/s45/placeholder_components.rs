use idem_scope::{scoped, ScopedKey};
use xitca_web::WebContext;

pub struct SupportState {
    tickets: TicketIdem,
    desk: HelpDesk,
}

fn client_key(ctx: &WebContext<'_, SupportState>) -> Option<String> {
    ctx.req().headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(str::to_owned)
}

/// Public contact form: there is no logged-in tenant on this page.
pub async fn contact_support(ctx: WebContext<'_, SupportState>) -> Result<String, SupportError> {
    let k = client_key(&ctx).ok_or(SupportError::MissingKey)?;
    let visitor = ctx.req().extensions().get::<VisitorId>().map(|v| v.0.clone()).ok_or(SupportError::NoVisitor)?;
    let user_id = visitor;
    let key: ScopedKey = scoped("", &user_id, "support.contact", &k)?;
    if let Some(t) = ctx.state().tickets.get(&key).await {
        return Ok(t);
    }
    let t = ctx.state().desk.open_public(&user_id).await;
    ctx.state().tickets.set(&key, &t).await;
    Ok(t)
}

pub async fn escalate(ctx: WebContext<'_, SupportState>) -> Result<String, SupportError> {
    let k = client_key(&ctx).ok_or(SupportError::MissingKey)?;
    let agent = ctx.req().extensions().get::<Agent>().cloned().ok_or(SupportError::NoVisitor)?;
    let key: ScopedKey = scoped(&agent.org_id, &agent.user_id, "default", &k)?;
    if let Some(t) = ctx.state().tickets.get(&key).await {
        return Ok(t);
    }
    let t = ctx.state().desk.escalate(&agent.org_id).await;
    ctx.state().tickets.set(&key, &t).await;
    Ok(t)
}

pub async fn reopen(ctx: WebContext<'_, SupportState>) -> Result<String, SupportError> {
    let k = client_key(&ctx).ok_or(SupportError::MissingKey)?;
    let agent = ctx.req().extensions().get::<Agent>().cloned().ok_or(SupportError::NoVisitor)?;
    let key: ScopedKey = scoped(&agent.org_id, &agent.user_id, "tickets.reopen", &k)?;
    if let Some(t) = ctx.state().tickets.get(&key).await {
        return Ok(t);
    }
    let t = ctx.state().desk.reopen(&agent.org_id).await;
    ctx.state().tickets.set(&key, &t).await;
    Ok(t)
}
