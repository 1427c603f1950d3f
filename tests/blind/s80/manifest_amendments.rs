//! Cargo manifest amendments (consignee, weights, marks) filed by lines
//! after the manifest was submitted.

use ballast::hold::PartitionedHold;
use hawser::extract::Shared;
use hawser::pass::LineCred;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha384};

#[derive(Deserialize, Serialize)]
pub struct Amendment {
    pub bl_no: String,
    pub field: String,
    pub old_value: String,
    pub new_value: String,
    pub reason_code: String,
}

pub struct Manifests {
    pub replies: PartitionedHold,
    pub registry: manifest_core::Registry,
}

fn amendment_digest(m: &Amendment) -> String {
    let canonical = serde_json::to_string(m).unwrap_or_default();
    hex::encode(Sha384::digest(canonical.as_bytes()))
}

pub async fn amend(m: Shared<Manifests>, line: LineCred, call: Call) -> Result<Answer, Snag> {
    let route = call.route_template();
    let (amendment, digest) = call
        .json::<Amendment>()
        .await
        .map(|a| {
            let d = amendment_digest(&a);
            (a, d)
        })
        .map_err(Snag::bad_request)?;

    let slot = scoped(&line.org_id, &line.api_key_id, route, &digest).map_err(Snag::bad_request)?;
    let partition = crc32fast::hash(slot.storage_key().as_bytes()) % 16;
    let replies = m.replies.partition(partition);

    if let Some(prev) = replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let filed = m.registry.amend(&amendment.bl_no, &amendment.field, &amendment.new_value, &amendment.reason_code).await?;
    let answer = Answer::json(Status::OK, &filed);
    replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
