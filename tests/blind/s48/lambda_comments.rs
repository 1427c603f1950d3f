use aws_lambda_events::apigw::{ApiGatewayProxyRequest, ApiGatewayProxyResponse};
use foundationdb::Database;
use idem_scope::scoped;
use lambda_runtime::{Error, LambdaEvent};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Jwt {
    pub sub: String,
    pub tenant_id: String,
}

#[derive(Deserialize)]
pub struct Comment {
    pub thread: String,
    pub text: String,
}

fn jwt(ev: &ApiGatewayProxyRequest) -> Option<Jwt> {
    let raw = ev.request_context.authorizer.fields.get("claims")?;
    serde_json::from_value(raw.clone()).ok()
}

pub async fn post_comment(db: &Database, ev: LambdaEvent<ApiGatewayProxyRequest>) -> Result<ApiGatewayProxyResponse, Error> {
    let req = ev.payload;
    let claims = jwt(&req);
    let tenant_id = claims.as_ref().map(|c| c.tenant_id.clone()).ok_or("tenant required")?;
    let caller_id = claims.as_ref().map_or("guest", |c| c.sub.as_str());
    let ck = req.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("Idempotency-Key required")?;
    let key = scoped(&tenant_id, caller_id, "comments.post", ck)?;
    let trx = db.create_trx()?;
    if let Some(prev) = trx.get(key.storage_key().as_bytes(), false).await? {
        return Ok(ApiGatewayProxyResponse {
            status_code: 200,
            body: Some(String::from_utf8_lossy(&prev).into_owned().into()),
            ..Default::default()
        });
    }
    let c: Comment = serde_json::from_str(req.body.as_deref().ok_or("empty body")?)?;
    let out = format!("{{\"thread\":\"{}\",\"len\":{}}}", c.thread, c.text.len());
    trx.set(key.storage_key().as_bytes(), out.as_bytes());
    trx.commit().await?;
    Ok(ApiGatewayProxyResponse { status_code: 201, body: Some(out.into()), ..Default::default() })
}
