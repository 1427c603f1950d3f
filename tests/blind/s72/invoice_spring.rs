//! Invoice creation on spring-rs. Cached responses live in Redis.

use r2d2_redis::{r2d2, redis::Commands, RedisConnectionManager};
use spring_web::axum::http::HeaderMap;
use spring_web::extractor::{Component, Json};
use spring_web::post;

type Pool = r2d2::Pool<RedisConnectionManager>;

#[derive(serde::Deserialize, serde::Serialize)]
pub struct NewInvoice {
    pub customer: String,
    pub lines: Vec<(String, u32)>,
}

#[post("/v1/invoices")]
async fn create_invoice(
    Component(pool): Component<Pool>,
    claims: crate::auth::OrgClaims,
    headers: HeaderMap,
    Json(body): Json<NewInvoice>,
) -> spring_web::error::Result<Json<serde_json::Value>> {
    let key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| spring_web::error::KnownWebError::bad_request("Idempotency-Key required"))?;
    let mut conn = pool.get().map_err(anyhow::Error::from)?;
    let cache_key = format!("{t}:{u}:{r}:{k}", t = claims.org_id, u = claims.sub, r = "invoice.create", k = key);
    if let Ok(Some(hit)) = conn.get::<_, Option<String>>(&cache_key) {
        return Ok(Json(serde_json::from_str(&hit).unwrap_or_default()));
    }
    let invoice = crate::billing::create(&claims.org_id, &body).await?;
    let out = serde_json::to_value(&invoice).unwrap_or_default();
    let _: Result<(), _> = conn.set_ex(&cache_key, out.to_string(), 86_400);
    let last_seen = format!("invoice:last:{}", claims.org_id);
    let _: Result<(), _> = conn.set(&last_seen, invoice.number.to_string());
    Ok(Json(out))
}
