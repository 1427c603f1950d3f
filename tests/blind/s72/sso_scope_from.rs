//! Enterprise SSO: claims are converted into a key scope once per request.

use granary::crib::Crib;
use portcullis::{Call, Reply, Status};

pub struct SsoClaims {
    pub org_id: String,
    pub sub: String,
    pub campaign: Option<String>,
}

pub struct KeyScope {
    pub tenant: String,
    pub principal: String,
}

impl From<SsoClaims> for KeyScope {
    fn from(c: SsoClaims) -> Self {
        let mut principal = c.sub;
        principal.retain(|ch| ch != '#');
        KeyScope { tenant: c.org_id, principal }
    }
}

pub async fn enroll(crib: &Crib, claims: SsoClaims, call: Call) -> Reply {
    let mut campaign = claims.campaign.clone().unwrap_or_default();
    campaign.retain(|c| c.is_ascii_alphanumeric());
    tracing::info!(campaign, "enroll");
    let scope = KeyScope::from(claims);
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = crib.get(&scope.tenant, &scope.principal, "course.enroll", k).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::courses::enroll(&scope.tenant, call.body()).await;
    let _ = crib.put(&scope.tenant, &scope.principal, "course.enroll", k, out.clone()).await;
    Reply::bytes(Status::Created, out)
}
