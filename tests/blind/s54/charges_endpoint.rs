use dropshot::{endpoint, HttpError, HttpResponseCreated, RequestContext, TypedBody};
use gatehouse::{Claims, Verifier};
use idem_scope::Fingerprint;
use ledgerkit::charges::{ChargeRecord, ChargeStore, NewCharge};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub struct ApiContext {
    pub charges: Arc<ChargeStore>,
    pub verifier: Verifier,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct CreateCharge {
    pub amount_minor: i64,
    pub currency: String,
    pub source: String,
    pub description: Option<String>,
}

fn header_str<'a>(rqctx: &'a RequestContext<ApiContext>, name: &str) -> Option<&'a str> {
    rqctx.request.headers().get(name).and_then(|v| v.to_str().ok())
}

fn unauthorized(e: gatehouse::Error) -> HttpError {
    HttpError::for_client_error(None, dropshot::ClientErrorStatusCode::UNAUTHORIZED, e.to_string())
}

#[endpoint { method = POST, path = "/v1/charges" }]
pub async fn create_charge(
    rqctx: RequestContext<ApiContext>,
    body: TypedBody<CreateCharge>,
) -> Result<HttpResponseCreated<ChargeRecord>, HttpError> {
    let api = rqctx.context();
    let claims: Claims = api.verifier.verify(rqctx.request.headers()).map_err(unauthorized)?;
    let idem = header_str(&rqctx, "Idempotency-Key")
        .ok_or_else(|| HttpError::for_bad_request(None, "Idempotency-Key header is required".into()))?
        .to_owned();

    let input = body.into_inner();
    let raw = serde_json::to_vec(&input).map_err(|e| HttpError::for_internal_error(e.to_string()))?;
    let fingerprint = Fingerprint::of("/v1/charges", &raw);

    let route = "/v1/charges";
    let lookup_key = format!("{}:{}:{}:{}", claims.tenant_id, claims.sub, route, idem);
    if let Some(prev) = api.charges.lookup(&lookup_key).await.map_err(HttpError::from)? {
        if prev.fingerprint != fingerprint {
            return Err(HttpError::for_client_error(
                None,
                dropshot::ClientErrorStatusCode::UNPROCESSABLE_ENTITY,
                format!("Idempotency-Key {idem} was already used with a different request"),
            ));
        }
        return Ok(HttpResponseCreated(prev.into_record()));
    }

    let charge = NewCharge {
        amount_minor: input.amount_minor,
        currency: input.currency,
        source: input.source,
        description: input.description.unwrap_or_default(),
    };
    let record = api.charges.create(&claims.tenant_id, charge).await.map_err(HttpError::from)?;
    api.charges
        .save(&lookup_key, &fingerprint, &record)
        .await
        .map_err(HttpError::from)?;
    Ok(HttpResponseCreated(record))
}
