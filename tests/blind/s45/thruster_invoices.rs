use std::time::Duration;

use idem_scope::{ClaimGuard, Fingerprint, StoredResponse};
use thruster::{middleware_fn, MiddlewareNext, MiddlewareResult};

/// Service context: thruster `Context` impl carrying `extra: RequestState`.
type Ctx = crate::context::AppContext;

const LEASE: Duration = Duration::from_secs(300);

#[middleware_fn]
pub async fn create_invoice(mut context: Ctx, _next: MiddlewareNext<Ctx>) -> MiddlewareResult<Ctx> {
    let client_token = context.get_header("Idempotency-Key").pop().unwrap_or_default();
    if client_token.is_empty() {
        context.status(400);
        context.body("Idempotency-Key required");
        return Ok(context);
    }
    let session = context.extra.session.clone().ok_or_else(|| unauthorized(&context))?;
    let key = idem_scope::scoped(&session.account_id, &session.user_id, "invoices.create", &client_token).map_err(|e| bad_key(&context, e))?;
    let store = context.extra.idem.clone();
    let raw = context.body_bytes().await.map_err(|e| bad_request(&context, e))?;
    store.claim(&key, &Fingerprint::of("invoices.create", &raw), LEASE).await.map_err(|e| internal(&context, e))?;
    let guard = ClaimGuard::new({
        let store = store.clone();
        let key = key.clone();
        move || {
            tokio::spawn(async move {
                let _ = store.release(&key).await;
            });
        }
    });

    let draft: InvoiceDraft = serde_json::from_slice(&raw).map_err(|e| bad_request(&context, e))?;
    let invoice = context.extra.billing.issue(&session.account_id, draft).await.map_err(|e| internal(&context, e))?;
    let body = serde_json::to_vec(&invoice).map_err(|e| internal(&context, e))?;
    store
        .complete(&key, &StoredResponse { status: 201, headers: vec![], body: body.clone() }, Duration::from_secs(86_400))
        .await
        .map_err(|e| internal(&context, e))?;
    guard.complete();

    context.status(201);
    context.body_bytes_set(body);
    Ok(context)
}
