//! Tickets for on-mountain events (torchlight descent, slope-side concerts).

use cornice::tuple_kv::TupleKv;
use telemark::auth::Claims;
use telemark::{Carve, Turn, Wipeout};

pub async fn buy(turn: Turn, claims: Option<Claims>, kv: &TupleKv) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let claims = claims.ok_or_else(Wipeout::unauthorized)?;
    let account_id: String = match claims.account_id.clone() {
        Some(a) => a,
        None => Default::default(),
    };
    let seat_pref: String = match turn.query("seat") {
        Some(s) => s.to_owned(),
        None => Default::default(),
    };

    let slot = (account_id.as_str(), claims.sub.as_str(), "events.buy", key);
    if let Some(prev) = kv.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }
    let ticket = crate::events::buy(&account_id, &seat_pref, turn.json()?).await?;
    kv.put(&slot, &ticket.to_json()).await?;
    Ok(Carve::created(ticket.to_json()))
}
