//! Paid powder-alert subscriptions (SMS when fresh snow exceeds a threshold).

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

const ANON_GUEST: &str = "anon-guest";

pub async fn subscribe(turn: Turn, who: Option<Skier>, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let tenant_id = turn.param("resort").ok_or_else(|| Wipeout::bad_request("resort"))?.to_owned();
    let user_id = match &who {
        Some(s) => s.user_id.clone(),
        None => ANON_GUEST.to_owned(),
    };
    let audience = if who.is_some() { "member" } else { "anonymous" };
    crate::metrics::incr_labelled("powder_alert.subscribe", audience);

    let sk = idem_scope::scoped(&tenant_id, &user_id, "alerts.subscribe", key)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::no_content());
    }
    crate::alerts::subscribe(&tenant_id, turn.json()?).await?;
    drift.put(sk.storage_key(), b"{}").await?;
    Ok(Carve::created("subscribed"))
}
