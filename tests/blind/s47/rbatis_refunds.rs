use idem_scope::{scoped, Fingerprint};
use rbatis::RBatis;
use rbs::to_value;
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct Db {
    pub rb: RBatis,
}

#[derive(Clone, Default)]
pub struct Claims {
    pub tenant_id: String,
    pub sub: Option<String>,
}

fn claims(req: &Request) -> Option<Claims> {
    req.extensions().get::<Claims>().cloned()
}

pub async fn refund(mut req: Request) -> Result<Response> {
    let db = req.state::<Db>().ok_or(StatusCode::INTERNAL_SERVER_ERROR)?;
    let c = claims(&req).ok_or(StatusCode::UNAUTHORIZED)?;
    let principal = c.sub.clone().unwrap_or_default();
    let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
    let raw = req.bytes().await?;
    let fp = Fingerprint::of("refunds.create", &raw);
    let page = req.query::<u32>().unwrap_or_default();

    let sk = scoped(&c.tenant_id, &principal, "refunds.create", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
    let cols = sk.columns();
    let existing: Option<String> = db
        .rb
        .query_decode("SELECT response FROM idempotency_records WHERE tenant_id = ? AND principal_id = ? AND route = ? AND idem_key = ?", vec![to_value!(cols.tenant_id), to_value!(cols.principal_id), to_value!(cols.route), to_value!(cols.idem_key)])
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    if let Some(r) = existing {
        return Ok(Response::text(r));
    }
    let out = format!("{{\"refunded\":true,\"page\":{}}}", page);
    db.rb
        .exec("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, response) VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', ?)", vec![to_value!(cols.scope_version), to_value!(cols.tenant_id), to_value!(cols.principal_id), to_value!(cols.route), to_value!(cols.ns), to_value!(cols.idem_key), to_value!(fp.as_bytes().to_vec()), to_value!(&out)])
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(Response::text(out))
}
