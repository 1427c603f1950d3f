//! Boot-fitting appointments; the dedup slot comes from a helper.

use cornice::pair::PairKv;
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

fn dedup_slot<'a>(turn: &'a Turn, staff: &'a Staff) -> Option<(&'a str, &'a str)> {
    let key = turn.header("Idempotency-Key")?;
    Some((staff.org_id.as_str(), key))
}

fn audit_pair<'a>(turn: &'a Turn, staff: &'a Staff) -> (&'a str, String) {
    let key = turn.header("Idempotency-Key").unwrap_or("-");
    (staff.sub.as_str(), format!("boot-fitting requested with {key}"))
}

pub async fn book_fitting(turn: Turn, staff: Staff, kv: &PairKv) -> Result<Carve, Wipeout> {
    let Some((org, key)) = dedup_slot(&turn, &staff) else {
        return Err(Wipeout::bad_request("Idempotency-Key required"));
    };
    if let Some(done) = kv.get(org, key).await? {
        return Ok(Carve::replayed(done));
    }
    let (who, note) = audit_pair(&turn, &staff);
    tracing::info!(who, note, "fitting booked");

    let slot: crate::shop::FittingSlot = turn.json()?;
    let appt = crate::shop::book(&slot).await?;
    kv.put(org, key, &appt.to_json()).await?;
    Ok(Carve::created(appt.to_json()))
}
