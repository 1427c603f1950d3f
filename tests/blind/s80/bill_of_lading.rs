//! Electronic bill of lading surrender: the consignee's bank or agent
//! surrenders an eBL so the line can issue the release.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Surrender {
    pub bl_no: String,
    pub platform: String,
    pub endorsement_chain: Vec<String>,
}

pub struct EblDesk {
    pub replies: Hold,
    pub registry: ebl_bridge::Registry,
}

pub async fn surrender(d: Shared<EblDesk>, a: Agent, call: Call, Json(s): Json<Surrender>) -> Result<Answer, Snag> {
    let raw = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let k = raw.replacen('#', "", 1);
    let bl_no = s.bl_no.replacen("BL#", "", 1);

    let key = scoped(&a.account_id, &a.user_id, call.route_template(), &k).map_err(Snag::bad_request)?;
    if let Some(prev) = d.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let receipt = d.registry.surrender(&bl_no, &s.platform, &s.endorsement_chain).await?;
    let answer = Answer::json(Status::OK, &receipt);
    d.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
