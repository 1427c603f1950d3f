//! Base-lodge locker hire; keys are written by a small builder.

use std::fmt::Write as _;

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

struct SlotWriter {
    buf: String,
}

impl SlotWriter {
    fn new() -> Self {
        Self { buf: String::new() }
    }

    fn locker(mut self, org_id: &str, user_id: &str, idem: &str) -> String {
        let route = "locker.hire";
        let _ = write!(self.buf, "{}/{}/{}/{}", org_id, user_id, route, idem);
        self.buf
    }
}

pub async fn hire(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let idem = match turn.header("Idempotency-Key") {
        Some(v) if !v.is_empty() => v.to_owned(),
        _ => return Err(Wipeout::bad_request("Idempotency-Key required")),
    };
    let slot = SlotWriter::new().locker(&skier.tenant_id, &skier.user_id, &idem);

    if let Some(stored) = drift.get(&slot).await? {
        return Ok(Carve::replayed(stored));
    }
    let bank = turn.param("bank").unwrap_or("A");
    let Some(locker) = crate::lockers::free_in(bank).await else {
        let mut detail = String::new();
        let _ = write!(detail, "no locker free in bank {bank} for request {idem}");
        return Err(Wipeout::unavailable(detail));
    };
    let body = locker.ticket_json();
    drift.put(&slot, body.as_bytes()).await?;
    Ok(Carve::created(body))
}
