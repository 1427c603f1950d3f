//! Uphill (skinning) permits; club members may buy on behalf of their club.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn buy_permit(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let team_id: String = if let Some(club) = skier.club.as_ref() {
        club.team_id.clone()
    } else {
        "shared".into()
    };
    let page_size = turn.query("limit").and_then(|v| v.parse::<u32>().ok()).unwrap_or(25);

    let sk = idem_scope::scoped(&team_id, &skier.user_id, "uphill.permit", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let permit = crate::uphill::issue(&team_id, &skier.user_id, page_size).await?;
    drift.put(sk.storage_key(), &permit.to_json()).await?;
    Ok(Carve::created(permit.to_json()))
}
