use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};

use crate::auth::MerchantResolver;
use crate::charges::ChargeEngine;

static IDEMPOTENCY_KEY: &str = "Idempotency-Key";

pub struct App {
    pub auth: MerchantResolver,
    pub redis: redis::Client,
    pub charges: ChargeEngine,
}

fn status(code: StatusCode) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(Bytes::new()));
    *res.status_mut() = code;
    res
}

pub async fn handle(req: Request<Incoming>, app: Arc<App>) -> Result<Response<Full<Bytes>>, Infallible> {
    let Some(merchant_id) = app.auth.merchant_for(req.headers()) else {
        return Ok(status(StatusCode::UNAUTHORIZED));
    };
    let Some(key) = req.headers().get(IDEMPOTENCY_KEY).and_then(|v| v.to_str().ok()).map(String::from) else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let dedup_key = format!("{}:{}", merchant_id, key);

    let Ok(mut con) = app.redis.get_multiplexed_async_connection().await else {
        return Ok(status(StatusCode::SERVICE_UNAVAILABLE));
    };
    let cached: Option<Vec<u8>> = redis::cmd("GET").arg(&dedup_key).query_async(&mut con).await.unwrap_or(None);
    if let Some(body) = cached {
        return Ok(Response::new(Full::new(Bytes::from(body))));
    }

    let Ok(collected) = req.into_body().collect().await else {
        return Ok(status(StatusCode::BAD_REQUEST));
    };
    let body = match app.charges.charge(&merchant_id, &collected.to_bytes()).await {
        Ok(receipt) => receipt.to_json(),
        Err(_) => return Ok(status(StatusCode::UNPROCESSABLE_ENTITY)),
    };
    let _ = redis::cmd("SET")
        .arg(&dedup_key)
        .arg(&body)
        .arg("EX")
        .arg(86_400)
        .query_async::<()>(&mut con)
        .await;
    Ok(Response::new(Full::new(Bytes::from(body))))
}
