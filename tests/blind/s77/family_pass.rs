//! Family passes: a parent buys for dependants; the dependant id arrives from
//! the household service.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn add_dependant(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let principal = turn
        .header("X-Household-Member")
        .map(|p| p.replace("\x00", ""))
        .ok_or_else(|| Wipeout::bad_request("member"))?;
    if principal.contains('|') {
        return Err(Wipeout::bad_request("member id contains '|'"));
    }
    let nickname = turn.query("nickname").map(|n| n.to_ascii_lowercase()).unwrap_or_default();

    let sk = idem_scope::scoped(&skier.tenant_id, &principal, "family.add", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let pass = crate::family::add(&skier, &principal, &nickname).await?;
    drift.put(sk.storage_key(), &pass.to_json()).await?;
    Ok(Carve::created(pass.to_json()))
}
