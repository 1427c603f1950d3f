use cobble::vault::Vault;
use idem_scope::Problem;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

fn encode<T: serde::Serialize>(t: &T) -> Result<Vec<u8>, Reply> {
    pot::to_vec(t).map_err(|_| Reply::status(Status::InternalServerError))
}

pub async fn enrol(ex: Exchange, caller: Caller, course: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let key = encode(&(&caller.tenant_id, &caller.user_id, raw))?;
    if !vault.set_nx(&key, course.as_bytes()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Created))
}

pub async fn withdraw(ex: Exchange, caller: Caller, course: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let key = encode(&(&caller.tenant_id, &caller.user_id, "course.withdraw", raw))?;
    if !vault.set_nx(&key, course.as_bytes()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    let seat = encode(&(&caller.tenant_id, &course))?;
    vault.incr(&seat).await.ok();
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn course_code_ok(code: &str) -> bool {
    code.len() <= 12 && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}
