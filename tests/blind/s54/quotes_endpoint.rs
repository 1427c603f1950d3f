use dropshot::{endpoint, HttpError, HttpResponseOk, RequestContext, TypedBody};
use gatehouse::dropshot::Claims;
use idem_scope::scoped;
use ledgerkit::idem::ReplayStore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub struct QuoteApi {
    pub replay: ReplayStore,
    pub pricing: pricing::Engine,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QuoteRequest {
    pub sku: String,
    pub quantity: u32,
    pub ship_to_country: String,
    pub coupon: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Quote {
    pub total_minor: i64,
    pub currency: String,
    pub valid_for_secs: u32,
}

fn to_http(e: impl std::fmt::Display) -> HttpError {
    HttpError::for_internal_error(e.to_string())
}

#[endpoint { method = POST, path = "/v1/quotes" }]
pub async fn create_quote(
    rqctx: RequestContext<QuoteApi>,
    claims: Claims,
    body: TypedBody<QuoteRequest>,
) -> Result<HttpResponseOk<Quote>, HttpError> {
    let api = rqctx.context();
    let input = body.into_inner();
    let canonical = serde_json::to_vec(&input).map_err(to_http)?;
    let digest = hex::encode(Sha256::digest(&canonical));

    let sk = scoped(&claims.tenant_id, &claims.sub, "quotes.create", &digest).map_err(to_http)?;
    if let Some(q) = api.replay.load::<Quote>(&sk).await.map_err(to_http)? {
        return Ok(HttpResponseOk(q));
    }

    let quote = api
        .pricing
        .quote(&claims.tenant_id, &input.sku, input.quantity, &input.ship_to_country, input.coupon.as_deref())
        .await
        .map_err(to_http)?;
    api.replay.save(&sk, &quote).await.map_err(to_http)?;
    Ok(HttpResponseOk(quote))
}
