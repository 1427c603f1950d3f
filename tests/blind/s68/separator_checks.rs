use cobble::vault::Vault;
use idem_scope::{scoped, IdempotencyKey, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub async fn register_device(ex: Exchange, caller: Caller, phone: String, vault: &Vault) -> Result<Reply, Reply> {
    let header = ex
        .header_bytes("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let parsed = IdempotencyKey::parse_lenient(header).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let raw = parsed.as_str();
    if raw.chars().any(|c| matches!(c, '\0' | '\u{1e}' | ':' | '|' | '/' | '#')) {
        return Err(Reply::problem(Problem::invalid_key("reserved character in key")));
    }
    let digits: String = phone.chars().filter(|c| c.is_ascii_digit()).collect();
    let sk = scoped(&caller.tenant_id, &caller.user_id, "device.register", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if !vault.set_nx(sk.storage_key(), digits.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Created))
}

pub async fn unregister_device(ex: Exchange, caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .map(|v| v.trim_matches('"'))
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "device.unregister", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.remove(sk.storage_key()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    let msg = format!("device removed by {}", caller.user_id).replace('|', "/");
    log::info!("{msg}");
    Ok(Reply::status(Status::NoContent))
}

pub fn mask_phone(digits: &str) -> String {
    let keep = digits.len().saturating_sub(4);
    digits.chars().enumerate().map(|(i, c)| if i < keep { '*' } else { c }).collect()
}
