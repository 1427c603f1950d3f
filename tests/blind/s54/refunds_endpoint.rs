use dropshot::{endpoint, HttpError, HttpResponseOk, Path, RequestContext, TypedBody};
use gatehouse::Claims;
use ledgerkit::refunds::{Refund, RefundLedger, RefundStatus};
use serde::Deserialize;
use uuid::Uuid;

pub struct RefundApi {
    pub ledger: RefundLedger,
    pub seen: ledgerkit::ReplayTable<(String, String), Refund>,
}

#[derive(Deserialize)]
pub struct PaymentPath {
    pub payment_id: String,
}

#[derive(Deserialize)]
pub struct RefundBody {
    pub amount_minor: i64,
    pub reason: Option<String>,
}

struct RefundHeaders {
    idempotency_key: String,
    on_behalf_of: Option<String>,
}

fn read_headers(rqctx: &RequestContext<RefundApi>) -> Result<RefundHeaders, HttpError> {
    let h = rqctx.request.headers();
    let idempotency_key = h
        .get("x-idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| HttpError::for_bad_request(None, "missing X-Idempotency-Key".into()))?;
    let on_behalf_of = h.get("x-on-behalf-of").and_then(|v| v.to_str().ok()).map(String::from);
    Ok(RefundHeaders { idempotency_key, on_behalf_of })
}

#[endpoint { method = POST, path = "/v1/payments/{payment_id}/refunds" }]
pub async fn refund_payment(
    rqctx: RequestContext<RefundApi>,
    path: Path<PaymentPath>,
    body: TypedBody<RefundBody>,
) -> Result<HttpResponseOk<Refund>, HttpError> {
    let claims = rqctx.request.extensions().get::<Claims>().cloned().ok_or_else(|| HttpError::for_internal_error("auth layer missing".into()))?;
    let hdrs = read_headers(&rqctx)?;
    let api = rqctx.context();

    let dedup = (claims.tenant_id.clone(), hdrs.idempotency_key.clone());
    if let Some(done) = api.seen.get(&dedup).await {
        return Ok(HttpResponseOk(done));
    }

    let path = path.into_inner();
    let body = body.into_inner();
    let refund = Refund {
        id: Uuid::new_v4(),
        payment_id: path.payment_id,
        amount_minor: body.amount_minor,
        reason: body.reason.unwrap_or_default(),
        requested_by: hdrs.on_behalf_of.unwrap_or_else(|| claims.sub.clone()),
        status: RefundStatus::Pending,
    };
    api.ledger.append(&claims.tenant_id, &refund).await.map_err(HttpError::from)?;
    api.seen.insert(dedup, refund.clone()).await;
    Ok(HttpResponseOk(refund))
}
