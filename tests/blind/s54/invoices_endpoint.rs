use dropshot::{endpoint, HttpError, HttpResponseCreated, RequestContext, UntypedBody};
use gatehouse::Claims;
use idem_scope::{scoped, Decision, Fingerprint, Problem, Record};
use ledgerkit::invoices::{Invoice, InvoiceDraft, InvoiceRepo};
use ledgerkit::idem::RecordStore;

pub struct Ctx {
    pub invoices: InvoiceRepo,
    pub records: RecordStore,
}

fn problem(p: Problem) -> HttpError {
    HttpError::for_client_error(None, dropshot::ClientErrorStatusCode::from_u16(p.status()).unwrap(), p.to_json())
}

#[endpoint { method = POST, path = "/v2/invoices" }]
pub async fn create_invoice(
    rqctx: RequestContext<Ctx>,
    body: UntypedBody,
) -> Result<HttpResponseCreated<Invoice>, HttpError> {
    let claims = gatehouse::dropshot::claims(&rqctx).await?;
    let headers = rqctx.request.headers();
    let client_key = headers
        .get("Idempotency-Key")
        .map(|v| v.as_bytes())
        .ok_or_else(|| problem(Problem::missing_key()))?;
    let client_key = idem_scope::IdempotencyKey::parse_lenient(client_key)
        .map_err(|e| problem(Problem::invalid_key(&e.to_string())))?;

    let org_id = claims.org_id.clone().unwrap_or_default();
    let sk = scoped(&org_id, &claims.sub, "invoices.create", client_key.as_str())
        .map_err(|e| problem(Problem::invalid_key(&e.to_string())))?;

    let fingerprint = Fingerprint::of("invoices.create", body.as_bytes());
    let existing = rqctx.context().records.get(&sk).await.map_err(HttpError::from)?;
    match idem_scope::decide(existing.as_ref(), &fingerprint) {
        Decision::Replay => {
            let invoice: Invoice = existing.and_then(|r| r.response_json()).ok_or_else(|| HttpError::for_internal_error("replay without body".into()))?;
            return Ok(HttpResponseCreated(invoice));
        }
        Decision::InProgress => return Err(problem(Problem::in_progress(client_key.as_str()))),
        Decision::Mismatch => return Err(problem(Problem::mismatch(client_key.as_str()))),
        Decision::Proceed => {}
    }

    let draft: InvoiceDraft = body.json().map_err(|e| HttpError::for_bad_request(None, e.to_string()))?;
    let memo = draft.memo.clone().unwrap_or_default();
    let invoice = rqctx.context().invoices.create(&org_id, &draft, &memo).await.map_err(HttpError::from)?;
    rqctx
        .context()
        .records
        .put(&sk, Record::completed(fingerprint).with_json(&invoice))
        .await
        .map_err(HttpError::from)?;
    Ok(HttpResponseCreated(invoice))
}
