use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopedKey};
use thimble::auth::Session;
use thimble::{Exchange, Reply, Status};

fn workspace_of(session: &Session) -> &str {
    match session.workspace_id.as_deref() {
        Some(ws) => ws,
        None => "global",
    }
}

fn switch_key(session: &Session, raw: &str) -> Result<ScopedKey, Reply> {
    scoped(workspace_of(session), &session.subject, "workspace.switch", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

pub async fn switch(ex: Exchange, session: Session, target: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = switch_key(&session, raw)?;
    if !vault.set_nx(sk.storage_key(), target.as_bytes()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    log::info!(workspace = workspace_of(&session), target = target.as_str(); "workspace switch");
    Ok(Reply::status(Status::Accepted))
}

pub async fn current(session: Session, vault: &Vault) -> Result<Reply, Reply> {
    let Some(ws) = session.workspace_id.as_deref() else {
        return Err(Reply::status(Status::Forbidden));
    };
    let row = vault.get(&format!("ws:{}:{}", ws, session.subject)).await.map_err(|_| down())?;
    Ok(Reply::json(Status::Ok, &row))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
