use std::time::Duration;

use dropshot::{endpoint, HttpError, HttpResponseOk, HttpResponseUpdatedNoContent, Path, RequestContext, UntypedBody};
use gatehouse::dropshot::Claims;
use idem_scope::{scoped, ClaimGuard, ScopedKey};
use ledgerkit::idem::{Claimed, ResponseVault};
use serde::Deserialize;

pub struct PayCtx {
    pub vault: ResponseVault,
    pub payments: payments::Repo,
    pub webhook_secret: String,
}

#[derive(Deserialize)]
pub struct PaymentPath {
    pub payment_id: String,
}

#[derive(Deserialize)]
struct PspEvent {
    id: String,
    payment_id: String,
    tenant_id: String,
    user_id: String,
}

async fn confirm_once(ctx: &PayCtx, sk: &ScopedKey, payment_id: &str) -> Result<Vec<u8>, HttpError> {
    match ctx.vault.claim(sk, Duration::from_secs(60)).await.map_err(HttpError::from)? {
        Claimed::New => {}
        Claimed::Existing(_, Some(stored)) => return Ok(stored.body),
        Claimed::Existing(_, None) => return Err(HttpError::for_unavail(None, "confirmation in progress".into())),
    }
    let release = {
        let (vault, sk) = (ctx.vault.clone(), sk.clone());
        ClaimGuard::new(move || vault.spawn_release(sk))
    };
    let confirmed = ctx.payments.confirm(payment_id).await.map_err(HttpError::from)?;
    let body = serde_json::to_vec(&confirmed).map_err(|e| HttpError::for_internal_error(e.to_string()))?;
    ctx.vault.complete(sk, 200, &body).await.map_err(HttpError::from)?;
    release.complete();
    Ok(body)
}

#[endpoint { method = POST, path = "/v1/payments/{payment_id}/confirm" }]
pub async fn confirm_payment(
    rqctx: RequestContext<PayCtx>,
    claims: Claims,
    path: Path<PaymentPath>,
) -> Result<HttpResponseOk<serde_json::Value>, HttpError> {
    let key = rqctx
        .request
        .headers()
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| HttpError::for_bad_request(None, "Idempotency-Key required".into()))?;
    let payment_id = path.into_inner().payment_id;
    let sk = scoped(&claims.tenant_id, &claims.user_id, "payments.confirm", key)
        .map_err(|e| HttpError::for_bad_request(None, e.to_string()))?;
    let body = confirm_once(rqctx.context(), &sk, &payment_id).await?;
    Ok(HttpResponseOk(serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null)))
}

#[endpoint { method = POST, path = "/hooks/psp" }]
pub async fn psp_webhook(rqctx: RequestContext<PayCtx>, body: UntypedBody) -> Result<HttpResponseUpdatedNoContent, HttpError> {
    let ctx = rqctx.context();
    let sig = rqctx.request.headers().get("psp-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    gatehouse::webhooks::verify(&ctx.webhook_secret, sig, body.as_bytes()).map_err(|_| HttpError::for_bad_request(None, "bad signature".into()))?;
    let evt: PspEvent = body.json()?;
    let sk = scoped(&evt.tenant_id, &evt.user_id, "payments.confirm", &evt.id)
        .map_err(|e| HttpError::for_bad_request(None, e.to_string()))?;
    confirm_once(ctx, &sk, &evt.payment_id).await?;
    Ok(HttpResponseUpdatedNoContent())
}
