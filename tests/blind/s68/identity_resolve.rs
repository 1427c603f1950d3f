use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::{Claims, MaybeSession};
use thimble::{Exchange, Reply, Status};

pub struct Resolved {
    pub tenant_id: String,
    pub subject: String,
    pub display: String,
    pub retries: u32,
}

pub fn resolve(session: &MaybeSession, claims: Option<&Claims>) -> Result<Resolved, Reply> {
    let s = session.as_ref().ok_or_else(|| Reply::problem(Problem::invalid_key("no session")))?;
    let tenant_id = match claims.and_then(|c| c.org_id.clone()) {
        Some(org) => org,
        None => return Err(Reply::status(Status::Forbidden)),
    };
    let display = claims.and_then(|c| c.name.clone()).unwrap_or_else(|| "Guest".to_string());
    let retries = s.header_u32("X-Retry-Attempt").unwrap_or_default();
    Ok(Resolved { tenant_id, subject: s.subject.clone(), display, retries })
}

pub async fn accept_invite(ex: Exchange, session: MaybeSession, claims: Option<Claims>, invite: String, vault: &Vault) -> Result<Reply, Reply> {
    let who = resolve(&session, claims.as_ref())?;
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&who.tenant_id, &who.subject, "invite.accept", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if !vault.set_nx(sk.storage_key(), invite.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    log::info!("{} accepted invite {invite} (attempt {})", who.display, who.retries);
    Ok(Reply::status(Status::Accepted))
}

impl Resolved {
    pub fn greeting(&self) -> String {
        if self.retries > 0 {
            format!("Welcome back, {}", self.display)
        } else {
            format!("Welcome, {}", self.display)
        }
    }
}
