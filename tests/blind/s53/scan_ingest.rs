use std::time::Duration;

use actix_web::{post, web, HttpRequest, HttpResponse};
use rdkafka::producer::{FutureProducer, FutureRecord};
use serde::Deserialize;

use crate::auth::Claims;
use crate::dedup::DedupWindow;

#[derive(Deserialize)]
pub struct ScanEvent {
    pub parcel_id: String,
    pub hub_code: String,
    pub scanned_at: i64,
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

#[post("/v1/scans")]
pub async fn ingest_scan(
    req: HttpRequest,
    claims: Claims,
    scan: web::Json<ScanEvent>,
    window: web::Data<DedupWindow>,
    producer: web::Data<FutureProducer>,
) -> actix_web::Result<HttpResponse> {
    let request_id = header(&req, "X-Request-Id")
        .map(str::to_owned)
        .ok_or_else(|| actix_web::error::ErrorBadRequest("X-Request-Id is required for scan ingestion"))?;
    let trace_id = header(&req, "traceparent").unwrap_or_default();
    tracing::info!(%request_id, %trace_id, parcel = %scan.parcel_id, "scan received");

    let fresh = window
        .set_nx(&request_id, Duration::from_secs(15 * 60))
        .await
        .map_err(actix_web::error::ErrorServiceUnavailable)?;
    if !fresh {
        return Ok(HttpResponse::Accepted().finish());
    }

    let payload = serde_json::to_vec(&serde_json::json!({
        "tenant_id": claims.tenant_id,
        "parcel_id": scan.parcel_id,
        "hub": scan.hub_code,
        "at": scan.scanned_at,
    }))?;
    producer
        .send(FutureRecord::to("parcel-scans").key(&scan.parcel_id).payload(&payload), Duration::from_secs(5))
        .await
        .map_err(|(e, _)| actix_web::error::ErrorBadGateway(e.to_string()))?;
    Ok(HttpResponse::Accepted().finish())
}
