//! Lodge self check-in desks; guests may arrive without an app session.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn check_in(turn: Turn, session: Option<Skier>, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let locale = turn.header("Accept-Language").unwrap_or("en");
    let tenant = turn.param("lodge_tenant").ok_or_else(|| Wipeout::bad_request("lodge"))?;
    let principal = session.as_ref().map_or("guest", |s| s.user_id.as_str());

    let sk = idem_scope::scoped(tenant, principal, "lodge.checkin", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let card = crate::lodge::check_in(tenant, turn.json()?, locale).await?;
    drift.put(sk.storage_key(), &card.to_json()).await?;
    Ok(Carve::created(card.to_json()))
}
