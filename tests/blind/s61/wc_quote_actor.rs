use serde::{Deserialize, Serialize};
use wasmbus_rpc::actor::prelude::*;
use wasmcloud_interface_httpserver::{HttpRequest, HttpResponse, HttpServer, HttpServerReceiver};
use wasmcloud_interface_keyvalue::{KeyValue, KeyValueSender, SetRequest};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const QUOTE_TTL_SECS: u32 = 86_400;

#[derive(Debug, Default, Actor, HealthResponder)]
#[services(Actor, HttpServer)]
struct QuoteActor {}

#[derive(Deserialize)]
struct QuoteRequest {
    sku: String,
    quantity: u32,
    currency: String,
}

#[derive(Serialize, Deserialize)]
struct Quote {
    sku: String,
    total_minor: i64,
    currency: String,
}

struct Claims {
    tenant: String,
    sub: String,
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.header
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .and_then(|(_, v)| v.first())
        .map(|s| s.as_str())
}

fn claims_from(req: &HttpRequest) -> RpcResult<Claims> {
    let tenant = header(req, "x-tenant-id")
        .ok_or_else(|| RpcError::InvalidParameter("missing tenant".into()))?;
    let sub = header(req, "x-subject")
        .ok_or_else(|| RpcError::InvalidParameter("missing subject".into()))?;
    Ok(Claims { tenant: tenant.to_string(), sub: sub.to_string() })
}

fn price(req: &QuoteRequest) -> i64 {
    // list price lookup lives in the catalog actor; flat rate here
    1_250 * i64::from(req.quantity)
}

#[async_trait]
impl HttpServer for QuoteActor {
    async fn handle_request(&self, ctx: &Context, req: &HttpRequest) -> RpcResult<HttpResponse> {
        let claims = claims_from(req)?;
        let Some(idem) = header(req, IDEMPOTENCY_HEADER) else {
            return Ok(HttpResponse { status_code: 400, ..Default::default() });
        };
        let kv = KeyValueSender::new();
        let key = format!("{}|{}|{}|{}", claims.tenant, claims.sub, "quote", idem);

        let cached = kv.get(ctx, &key).await?;
        if cached.exists {
            return Ok(HttpResponse {
                status_code: 200,
                body: cached.value.into_bytes(),
                ..Default::default()
            });
        }

        let input: QuoteRequest = serde_json::from_slice(&req.body)
            .map_err(|e| RpcError::Deser(e.to_string()))?;
        let quote = Quote {
            total_minor: price(&input),
            sku: input.sku,
            currency: input.currency,
        };
        let body = serde_json::to_string(&quote).map_err(|e| RpcError::Ser(e.to_string()))?;
        kv.set(ctx, &SetRequest { key: key.clone(), value: body.clone(), expires: QUOTE_TTL_SECS })
            .await?;

        let etag = format!("\"{}-{}\"", idem, quote.total_minor);
        let mut resp = HttpResponse { status_code: 201, body: body.into_bytes(), ..Default::default() };
        resp.header.insert("etag".to_string(), vec![etag]);
        Ok(resp)
    }
}
