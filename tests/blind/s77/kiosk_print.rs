//! Self-service kiosks printing pass cards; the kiosk firmware retries with
//! the same X-Request-Id, which doubles as the dedup key.

use cornice::drift::Drift;
use telemark::pass::Kiosk;
use telemark::{Carve, Turn, Wipeout};

pub async fn print_card(turn: Turn, kiosk: Kiosk, drift: &Drift) -> Result<Carve, Wipeout> {
    let request_id = turn
        .header("X-Request-Id")
        .ok_or_else(|| Wipeout::bad_request("X-Request-Id required"))?
        .to_owned();
    tracing::info!(request_id = %request_id, kiosk = %kiosk.device_id, "print request");

    let ttl = std::time::Duration::from_secs(600);
    let fresh = drift.put_if_absent(&request_id, b"printing", ttl).await?;
    if !fresh {
        return Ok(Carve::accepted("already printing"));
    }
    let job: crate::kiosk::PrintJob = turn.json()?;
    crate::kiosk::spool(&kiosk, &job).await?;
    Ok(Carve::accepted("queued"))
}

pub async fn status(turn: Turn, kiosk: Kiosk) -> Result<Carve, Wipeout> {
    let request_id = turn.header("X-Request-Id").unwrap_or_default();
    tracing::debug!(request_id, kiosk = %kiosk.device_id, "status poll");
    Ok(Carve::ok(crate::kiosk::status(&kiosk).await?))
}
