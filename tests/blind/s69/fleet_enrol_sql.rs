//! Bulk vehicle enrolment for fleets. Claims are rows in
//! `idempotency_records`.

use garner::sql::Link;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

#[derive(Debug)]
pub enum EnrolError {
    BadKey,
    Db(garner::sql::Error),
    Upstream(String),
}

impl From<garner::sql::Error> for EnrolError {
    fn from(e: garner::sql::Error) -> Self {
        EnrolError::Db(e)
    }
}

async fn enrol_inner(cx: &Cx, who: &Identity, link: &Link) -> Result<String, EnrolError> {
    let key = cx.header("Idempotency-Key").ok_or(EnrolError::BadKey)?;
    let sk = scoped(&who.org_id, &who.user_id, "/v1/fleet/vehicles/bulk", key).map_err(|_| EnrolError::BadKey)?;
    let c = sk.columns();
    link.query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status) VALUES ($1, $2, $3, $4, $5, $6, 'in_progress')")
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .execute()
        .await?;
    let vins: Vec<String> = serde_json::from_slice(&cx.body_bytes()).map_err(|e| EnrolError::Upstream(e.to_string()))?;
    let batch = crate::fleet::enrol_all(&who.org_id, &vins).await.map_err(EnrolError::Upstream)?;
    link.query("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .bind(batch.as_bytes())
        .execute()
        .await?;
    Ok(batch)
}

pub async fn enrol(cx: Cx, who: Identity, link: &Link) -> Reply {
    match enrol_inner(&cx, &who, link).await {
        Ok(b) => Reply::text(Code::CREATED, b),
        Err(EnrolError::BadKey) => Reply::status(Code::BAD_REQUEST),
        Err(e) => Reply::text(Code::BAD_GATEWAY, format!("{e:?}")),
    }
}
