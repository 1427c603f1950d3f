//! Snowcat dinner tours: seat booking.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

const TOUR_ROUTE: &str = "snowcat.book";

pub async fn book(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let tenant = skier.tenant_id.as_str();
    let uid = skier.user_id.as_str();
    let mk = |k: &str| format!("{}|{}|{}|{}", tenant, uid, TOUR_ROUTE, k);
    let scoped_mk = |k: &str| idem_scope::scoped(tenant, uid, TOUR_ROUTE, k);

    let idem = turn
        .header("Idempotency-Key")
        .ok_or_else(|| Wipeout::bad_request("missing Idempotency-Key"))?;

    if turn.query("v").is_some() {
        let sk = scoped_mk(idem).map_err(Wipeout::from_scope)?;
        if drift.exists(sk.storage_key()).await? {
            return Ok(Carve::conflict("already booked"));
        }
    }

    if drift.exists(&mk(idem)).await? {
        return Ok(Carve::conflict("already booked"));
    }
    let seats: crate::tours::Seats = turn.json()?;
    let booking = crate::tours::book(tenant, &seats).await?;
    let label = format!("{}|{}", booking.tour_date, booking.seat_count);
    drift.put(&mk(idem), label.as_bytes()).await?;
    Ok(Carve::created(booking))
}
