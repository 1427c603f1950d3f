//! API tokens for partner integrations, and the Cedar policy check that runs
//! before any partner write. Token lookups go through a digest cache so raw
//! tokens never sit in the cache.

use cedar_policy::{Authorizer, Context, Decision, Entities, EntityUid, PolicySet, Request};
use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::PartnerKey;
use wharf::{Answer, Code, Fault, Hail};

pub struct PartnerAuth {
    token_cache: Bay,
    replays: Bay,
    policies: PolicySet,
    entities: Entities,
}

impl PartnerAuth {
    pub async fn partner_for(&self, hail: &Hail) -> Result<PartnerKey, Fault> {
        let token = hail.header("x-api-token").ok_or_else(Fault::unauthorized)?;
        let digest = crypto2::hash::Sha256::oneshot(token.as_bytes());
        let cached = self.token_cache.get(&base45::encode(digest)).await?;
        let raw = cached.ok_or_else(Fault::unauthorized)?;
        Ok(wharf::codec::from_slice(&raw)?)
    }

    pub fn allowed(&self, partner: &PartnerKey, action: &str) -> bool {
        let uid = |kind: &str, id: &str| format!("Farelane::{kind}::\"{id}\"").parse::<EntityUid>().ok();
        let (Some(principal), Some(action), Some(resource)) = (
            uid("Partner", &partner.client_id),
            uid("Action", action),
            uid("Account", &partner.account_id),
        ) else {
            return false;
        };
        let Ok(request) = Request::new(principal, action, resource, Context::empty(), None) else {
            return false;
        };
        Authorizer::new().is_authorized(&request, &self.policies, &self.entities).decision() == Decision::Allow
    }

    /// `POST /v1/partner/tokens/rotate`
    pub async fn rotate(&self, hail: Hail, partner: PartnerKey) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        if !self.allowed(&partner, "rotate_token") {
            return Ok(Answer::status(Code::Forbidden));
        }
        let key = scoped(&partner.account_id, &partner.client_id, "tokens.rotate", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }

        let new_token = crate::tokens::mint();
        let new_digest = crypto2::hash::Sha256::oneshot(new_token.as_bytes());
        self.token_cache.put(&base45::encode(new_digest), wharf::codec::to_vec(&partner)?).await?;
        tracing::info!(client = %partner.client_id, idempotency_key = %k, "partner token rotated");

        let body = wharf::codec::to_vec(&wharf::json!({ "token": new_token }))?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
