use cobble::tuple::TupleVault;
use highwayhash::{HighwayHash, HighwayHasher, Key};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Reply, Status};

/// Stable tag of an insurance claim submission.
pub struct SubmissionTag(pub String);

#[derive(serde::Deserialize, serde::Serialize)]
pub struct ClaimSubmission {
    pub policy_no: String,
    pub incident_date: String,
    pub description: String,
}

impl SubmissionTag {
    pub fn of(sub: &ClaimSubmission) -> Self {
        let mut h = HighwayHasher::new(Key([1, 2, 3, 4]));
        h.append(&serde_json::to_vec(sub).unwrap_or_default());
        let [a, b] = h.finalize128();
        SubmissionTag(format!("{a:016x}{b:016x}"))
    }
}

pub async fn submit_claim(caller: Caller, Json(sub): Json<ClaimSubmission>, store: &TupleVault) -> Result<Reply, Reply> {
    let tag = SubmissionTag::of(&sub);
    let fresh = store
        .set_nx(&(caller.tenant_id.as_str(), caller.user_id.as_str(), "claim.submit", tag.0.as_str()), b"received")
        .await
        .map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    if !fresh {
        return Ok(Reply::status(Status::Ok));
    }
    store
        .put(&(caller.tenant_id.as_str(), "policy", sub.policy_no.as_str()), tag.0.as_bytes())
        .await
        .ok();
    Ok(Reply::status(Status::Accepted))
}
