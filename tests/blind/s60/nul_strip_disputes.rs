use gimbal::extract::{FromParts, Parts};
use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::sql::Stmt;
use serde::Deserialize;

use crate::disputes::{DisputeError, Disputes};

pub struct Key(String);

impl FromParts for Key {
    type Rejection = Reply;

    fn from_parts(parts: &Parts) -> Result<Self, Reply> {
        let v = parts
            .headers
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Reply::status(400))?;
        Ok(Key(v.replace("\0", "")))
    }
}

#[derive(Deserialize)]
pub struct DisputeEvidence {
    pub dispute_id: String,
    pub narrative: String,
}

pub async fn submit_evidence(disputes: &Disputes, ctx: Ctx, key: Key, Json(ev): Json<DisputeEvidence>) -> Result<Reply, DisputeError> {
    let auth = ctx.auth();
    let scoped_key = scoped(&auth.tenant_id, &auth.user_id, "disputes.evidence", &key.0)?;
    let c = scoped_key.columns();

    let existing = Stmt::new(
        "SELECT response FROM idempotency_records WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6",
    )
    .bind(c.scope_version)
    .bind(c.tenant_id)
    .bind(c.principal_id)
    .bind(c.route)
    .bind(c.ns)
    .bind(c.idem_key)
    .fetch_optional(disputes.pool())
    .await?;
    if let Some(row) = existing {
        return Ok(Reply::replay(row.get::<Vec<u8>>("response")));
    }

    let narrative = ev.narrative.replace("\r\n", "\n");
    let submitted = disputes.submit(&auth.tenant_id, &ev.dispute_id, &narrative).await?;
    disputes.remember(&scoped_key, &submitted.to_json()).await?;
    Ok(Reply::accepted(submitted.to_json()))
}
