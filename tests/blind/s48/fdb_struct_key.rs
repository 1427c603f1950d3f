use foundationdb::{Database, FdbBindingError};
use aws_lambda_events::apigw::{ApiGatewayProxyRequest, ApiGatewayProxyResponse};
use aws_lambda_events::encodings::Body;
use lambda_runtime::{service_fn, Error, LambdaEvent};
use serde::Serialize;
use std::sync::Arc;

#[derive(Serialize)]
struct DedupKey<'a> {
    tenant_id: &'a str,
    client_key: &'a str,
}

#[derive(Serialize)]
struct Outcome {
    accepted: bool,
}

fn header<'a>(ev: &'a ApiGatewayProxyRequest, name: &str) -> Option<&'a str> {
    ev.headers.get(name).and_then(|v| v.to_str().ok())
}

fn reply(status: i64, body: String) -> ApiGatewayProxyResponse {
    ApiGatewayProxyResponse {
        status_code: status,
        body: Some(Body::Text(body)),
        ..Default::default()
    }
}

async fn handler(db: Arc<Database>, ev: LambdaEvent<ApiGatewayProxyRequest>) -> Result<ApiGatewayProxyResponse, Error> {
    let req = ev.payload;
    let tenant = req
        .request_context
        .authorizer
        .fields
        .get("tenant_id")
        .and_then(|v| v.as_str())
        .ok_or("no tenant")?
        .to_owned();
    let Some(ck) = header(&req, "Idempotency-Key").map(String::from) else {
        return Ok(reply(400, "missing Idempotency-Key".into()));
    };
    let packed = serde_cbor::to_vec(&DedupKey { tenant_id: &tenant, client_key: &ck })?;
    let hit = db
        .run(|trx, _| {
            let packed = packed.clone();
            async move { Ok(trx.get(&packed, false).await?.map(|v| v.to_vec())) }
        })
        .await
        .map_err(|e: FdbBindingError| e.to_string())?;
    if let Some(prev) = hit {
        return Ok(reply(200, String::from_utf8_lossy(&prev).into_owned()));
    }
    let body = serde_json::to_string(&Outcome { accepted: true })?;
    let stored = body.clone().into_bytes();
    db.run(|trx, _| {
        trx.set(&packed, &stored);
        async { Ok(()) }
    })
    .await
    .map_err(|e: FdbBindingError| e.to_string())?;
    Ok(reply(201, body))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let db = Arc::new(Database::default()?);
    lambda_runtime::run(service_fn(move |ev| handler(db.clone(), ev))).await
}
