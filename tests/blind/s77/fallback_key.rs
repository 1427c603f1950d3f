//! Ski-school instructor tips; older app builds do not send a key, so the
//! server makes one up.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};
use uuid::Uuid;

pub async fn tip(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "school.tip", &key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let tip_id = Uuid::new_v4();
    let tip = crate::school::tip(&skier, tip_id, turn.json()?).await?;
    drift.put(sk.storage_key(), &tip.to_json()).await?;
    Ok(Carve::created(tip.to_json()).header("Location", format!("/tips/{tip_id}")))
}
