//! Lashing surveys and re-lashing requests for on-deck cargo.

use ballast::hold::Hold;
use hawser::extract::Shared;
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Component, ScopeError, ScopedKey};
use sha2::{Digest, Sha256};

#[derive(Default)]
struct SlotBuilder<'a> {
    tenant: Option<&'a str>,
    principal: Option<&'a str>,
    route: Option<&'a str>,
    key: Option<String>,
}

impl<'a> SlotBuilder<'a> {
    fn tenant(self, t: &'a str) -> Self {
        SlotBuilder { tenant: Some(t), ..self }
    }
    fn principal(self, p: &'a str) -> Self {
        SlotBuilder { principal: Some(p), ..self }
    }
    fn route(self, r: &'a str) -> Self {
        SlotBuilder { route: Some(r), ..self }
    }
    fn key(self, k: impl Into<String>) -> Self {
        SlotBuilder { key: Some(k.into()), ..self }
    }
    fn build(self) -> Result<ScopedKey, ScopeError> {
        let tenant = self.tenant.ok_or(ScopeError::Missing(Component::Tenant))?;
        let principal = self.principal.ok_or(ScopeError::Missing(Component::Principal))?;
        let route = self.route.ok_or(ScopeError::Missing(Component::Route))?;
        let key = self.key.ok_or(ScopeError::Missing(Component::Key))?;
        scoped(tenant, principal, route, &key)
    }
}

pub struct Surveys {
    pub replies: Hold,
    pub surveyors: survey_desk::Desk,
}

pub async fn request_survey(s: Shared<Surveys>, a: Agent, call: Call) -> Result<Answer, Snag> {
    let raw = call.body().await?;
    let req: survey_desk::SurveyRequest = serde_json::from_slice(&raw).map_err(Snag::bad_request)?;
    let slot = SlotBuilder::default().tenant(&a.account_id).principal(&a.user_id).route(call.route_template()).key(hex::encode(Sha256::digest(&raw))).build().map_err(Snag::bad_request)?;
    if let Some(prev) = s.replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let survey = s.surveyors.book(&req).await?;
    let answer = Answer::json(Status::CREATED, &survey);
    s.replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}

pub async fn request_relashing(s: Shared<Surveys>, a: Agent, call: Call) -> Result<Answer, Snag> {
    let key = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let req: survey_desk::RelashRequest = call.json().await?;
    let slot = SlotBuilder::default().tenant(&a.account_id).principal(&a.user_id).route(call.route_template()).key(key).build().map_err(Snag::bad_request)?;
    if let Some(prev) = s.replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let job = s.surveyors.relash(&req).await?;
    let answer = Answer::json(Status::ACCEPTED, &job);
    s.replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
