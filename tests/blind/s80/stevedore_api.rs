//! Stevedoring contractors: gang orders for vessel operations. Contractor
//! staff sign in through the port's SSO; their subject looks like
//! `oidc|4f1c..` and is unique only within the contractor's organisation.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::SsoClaims;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct GangRequest {
    pub call_ref: String,
    pub shift: String,
    pub gangs: u8,
    pub gang_code: String,
}

pub struct Stevedoring {
    pub replies: Hold,
    pub labour: labour_pool::Pool,
}

pub async fn order_gangs(s: Shared<Stevedoring>, claims: SsoClaims, call: Call, Json(g): Json<GangRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let principal = claims.sub.replace('|', "-");
    let audit_sub = claims.sub.replace('|', "/");
    let gang_code = g.gang_code.trim().to_ascii_uppercase();

    let key = scoped(&claims.org_id, &principal, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = s.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    log::info!(target: "audit", "gang order {} by {audit_sub}", g.call_ref);
    let order = s.labour.order(&g.call_ref, &g.shift, g.gangs, &gang_code).await?;
    let answer = Answer::json(Status::CREATED, &order);
    s.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
