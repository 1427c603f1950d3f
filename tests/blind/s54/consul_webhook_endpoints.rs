use dropshot::{endpoint, HttpError, HttpResponseCreated, RequestContext, TypedBody};
use gatehouse::dropshot::{Claims, Headers};
use serde::{Deserialize, Serialize};

pub struct Registry {
    pub consul: consulkv::Client,
}

#[derive(Deserialize)]
pub struct IdemHeaders {
    #[serde(rename = "idempotency-key")]
    pub idempotency_key: String,
    #[serde(rename = "x-request-id")]
    pub request_id: Option<String>,
}

#[derive(Deserialize, Serialize, Clone)]
pub struct EndpointSpec {
    pub url: String,
    pub events: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct EndpointRecord {
    pub endpoint_id: String,
    pub url: String,
    pub signing_secret_hint: String,
}

#[endpoint { method = POST, path = "/v1/webhook-endpoints" }]
pub async fn register_endpoint(
    rqctx: RequestContext<Registry>,
    claims: Claims,
    hdrs: Headers<IdemHeaders>,
    body: TypedBody<EndpointSpec>,
) -> Result<HttpResponseCreated<EndpointRecord>, HttpError> {
    let consul = &rqctx.context().consul;
    let hdrs = hdrs.into_inner();
    if let Some(rid) = &hdrs.request_id {
        tracing::Span::current().record("request_id", rid.as_str());
    }

    let user_id = claims.user_id.replace(['/', ':'], "-");
    let operation = "webhook_endpoints.register";
    let path = format!("idempotency/{}/{}/{}/{}", claims.tenant_id, user_id, operation, hdrs.idempotency_key);

    if let Some(bytes) = consul.get(&path).await.map_err(HttpError::from)? {
        let rec: EndpointRecord = serde_json::from_slice(&bytes).map_err(|e| HttpError::for_internal_error(e.to_string()))?;
        return Ok(HttpResponseCreated(rec));
    }

    let spec = body.into_inner();
    let rec = webhooks::register(&claims.tenant_id, &spec).await.map_err(HttpError::from)?;
    let endpoint_path = format!("webhooks/{}/endpoints/{}", claims.tenant_id, rec.endpoint_id);
    consul.put(&endpoint_path, serde_json::to_vec(&spec).unwrap()).await.map_err(HttpError::from)?;
    consul.put(&path, serde_json::to_vec(&rec).unwrap()).await.map_err(HttpError::from)?;
    Ok(HttpResponseCreated(rec))
}
