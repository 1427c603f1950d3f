//! Group lesson sign-up for families.

use cornice::drift::Drift;
use idem_scope::scoped;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn join_group(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn
        .header("Idempotency-Key")
        .filter(|k| !k.is_empty())
        .ok_or_else(|| Wipeout::problem(idem_scope::Problem::missing_key()))?;

    let sk = scoped(&skier.tenant_id, &skier.user_id, "", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }

    let signup: crate::school::GroupSignup = turn.json()?;
    let roster = crate::school::enrol(&signup).await?;
    drift.put(sk.storage_key(), &roster.to_json()).await?;
    Ok(Carve::created(roster.to_json()))
}

pub async fn leave_group(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn
        .header("Idempotency-Key")
        .ok_or_else(|| Wipeout::problem(idem_scope::Problem::missing_key()))?;
    let sk = scoped(&skier.tenant_id, &skier.user_id, "lesson.group-leave", key)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::no_content());
    }
    crate::school::withdraw(&skier.user_id, turn.param("group").unwrap_or_default()).await?;
    drift.put(sk.storage_key(), b"{}").await?;
    Ok(Carve::no_content())
}
