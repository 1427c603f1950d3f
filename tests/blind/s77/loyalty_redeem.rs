//! Loyalty points redemption ("vertical metres" rewards).

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn redeem(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let mut k = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?.to_owned();
    k.retain(|c| c != '#');
    let mut reward_code = turn.query("reward").unwrap_or("default-reward").to_owned();
    reward_code.retain(|c| !c.is_whitespace());

    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "loyalty.redeem", &k)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let points = crate::loyalty::redeem(&skier, &reward_code).await?;
    drift.put(sk.storage_key(), &points.to_json()).await?;
    Ok(Carve::ok(points))
}
