//! Lesson cancellation by the guest.

use std::time::Duration;

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn cancel(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "lesson.cancel", key)?;
    let lesson_id = turn.param("lesson").ok_or_else(|| Wipeout::bad_request("lesson"))?;

    drift.claim(sk.storage_key(), Duration::from_secs(120)).await?;
    let lesson = crate::school::lesson(lesson_id).await;
    if lesson.starts_within_hours(24) {
        return Ok(Carve::unprocessable("too late to cancel online"));
    }
    let refund = crate::school::cancel(&lesson).await;
    drift.complete(sk.storage_key(), &refund.to_json()).await?;
    Ok(Carve::ok(refund))
}

pub async fn reschedule(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "lesson.reschedule", key)?;
    let plan: crate::school::MovePlan = turn.json()?;

    drift.claim(sk.storage_key(), Duration::from_secs(90)).await?;
    let moved = match crate::school::reschedule(&skier, &plan).await {
        Ok(m) => m,
        Err(e) => {
            drift.release(sk.storage_key()).await?;
            return Err(e.into());
        }
    };
    drift.complete(sk.storage_key(), &moved.to_json()).await?;
    Ok(Carve::ok(moved))
}
