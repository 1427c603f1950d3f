use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::MaybeSession;
use thimble::{Exchange, Reply, Status};

#[derive(Clone, Debug, PartialEq)]
pub enum Principal {
    User(String),
    ServiceAccount(String),
    Anonymous,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::User(u) => u,
            Principal::ServiceAccount(s) => s,
            Principal::Anonymous => "anonymous",
        }
    }
}

fn principal_of(session: &MaybeSession) -> Option<Principal> {
    let s = session.as_ref()?;
    Some(if s.is_service { Principal::ServiceAccount(s.subject.clone()) } else { Principal::User(s.subject.clone()) })
}

pub async fn submit_feedback(ex: Exchange, session: MaybeSession, text: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let tenant = session.as_ref().map(|s| s.tenant_id.clone()).ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let principal = principal_of(&session).unwrap_or(Principal::Anonymous);
    let sk = scoped(&tenant, principal.as_str(), "feedback.submit", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.put(sk.storage_key(), text.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    Ok(Reply::status(Status::Accepted))
}

pub async fn vote(ex: Exchange, session: MaybeSession, item: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let s = session.as_ref().ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let principal = principal_of(&session).ok_or_else(|| Reply::status(Status::Unauthorized))?;
    let sk = scoped(&s.tenant_id, principal.as_str(), "feedback.vote", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.put(sk.storage_key(), item.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    Ok(Reply::status(Status::Accepted))
}
