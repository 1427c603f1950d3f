use std::sync::Arc;

use http::HeaderMap;
use sibyl::{Environment, Session, SessionPool};

use crate::claims_api::{ClaimDecision, DecideError, Reviewer};
use crate::identity::AuthContext;

const CLAIM_SQL: &str = "
    INSERT INTO idempotency_requests (tenant_id, principal_id, route, idem_key, status)
    VALUES (:tenant, :principal, :route, :idem_key, 'in_progress')";
const DONE_SQL: &str = "
    UPDATE idempotency_requests SET status = 'completed', response = :response
     WHERE tenant_id = :tenant AND principal_id = :principal AND route = :route AND idem_key = :idem_key";
const RELEASE_SQL: &str = "
    DELETE FROM idempotency_requests
     WHERE tenant_id = :tenant AND principal_id = :principal AND route = :route AND idem_key = :idem_key";

pub struct DecisionService {
    pool: Arc<SessionPool<'static>>,
    reviewer: Reviewer,
}

fn normalise_key(raw: &str) -> String {
    raw.replace(['|', ':'], "-")
}

impl DecisionService {
    pub async fn decide(&self, auth: &AuthContext, headers: &HeaderMap, claim_no: &str) -> Result<ClaimDecision, DecideError> {
        let raw_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or(DecideError::MissingKey)?;
        let idem_key = normalise_key(raw_key);
        let session: Session = self.pool.get_session().await?;
        let params = (
            (":tenant", auth.tenant_id.as_str()),
            (":principal", auth.principal_id.as_str()),
            (":route", "claims.decide"),
            (":idem_key", idem_key.as_str()),
        );

        let claim = session.prepare(CLAIM_SQL).await?;
        let done = session.prepare(DONE_SQL).await?;
        let release = session.prepare(RELEASE_SQL).await?;

        claim.execute(params).await?;
        let decision = match self.reviewer.decide(&auth.tenant_id, claim_no).await {
            Ok(d) => d,
            Err(e) => {
                release.execute(params).await?;
                session.commit().await?;
                return Err(e.into());
            }
        };
        let response = serde_json::to_string(&decision).unwrap_or_default();
        done.execute(((":response", response.as_str()), params.0, params.1, params.2, params.3)).await?;
        session.commit().await?;
        Ok(decision)
    }
}

pub fn connect(env: &'static Environment, dsn: &str, user: &str, pass: &str) -> Result<SessionPool<'static>, sibyl::Error> {
    env.create_session_pool(dsn, user, pass, 1, 1, 8)
}
