//! Day-parking permits for the resort car parks.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn buy_permit(turn: Turn, skier: Skier, drift: Drift) -> Result<Carve, Wipeout> {
    let k: String = turn
        .header("X-Idempotency-Key")
        .map(|s| s.trim().to_string())
        .ok_or(Wipeout::bad_request("missing key"))?;

    let tenant = skier.tenant_id.clone();
    let user_id = skier.user_id;
    let key = tenant.to_owned() + "#" + &user_id + "#parking.buy#" + &k;

    if let Some(previous) = drift.get(&key).await? {
        return Ok(Carve::replayed(previous));
    }

    let form: crate::parking::PermitForm = turn.form()?;
    let plate_label = form.country.clone() + " " + &form.plate.to_uppercase();
    let permit = crate::parking::issue(&tenant, &plate_label, form.lot).await?;

    drift.put(&key, &permit.to_json()).await?;
    Ok(Carve::created(permit.to_json()))
}
