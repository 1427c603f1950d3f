//! Refunds for cancelled ski-school lessons.

use cornice::drift::Drift;
use idem_scope::{scoped, IdempotencyKey, Problem};
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

pub async fn refund_lesson(turn: Turn, staff: Staff, drift: &Drift) -> Result<Carve, Wipeout> {
    let raw = turn
        .header_bytes("Idempotency-Key")
        .ok_or_else(|| Wipeout::problem(Problem::missing_key()))?;
    let idem = IdempotencyKey::parse_lenient(raw).map_err(|e| Wipeout::problem(Problem::invalid_key(&e.to_string())))?;

    let legacy_hit = drift.get(idem.as_str()).await?;
    if let Some(body) = legacy_hit {
        return Ok(Carve::replayed(body));
    }

    let sk = scoped(&staff.tenant_id, &staff.sub, "lesson.refund", idem.as_str())?;
    if let Some(body) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(body));
    }

    let body_hash = sha2::Sha256::digest(turn.body());
    drift.put_fingerprint(sk.storage_key(), &body_hash).await?;
    let req: crate::school::RefundRequest = turn.json()?;
    let refund = crate::payments::refund(&req).await?;
    drift.put(sk.storage_key(), &refund.to_json()).await?;
    Ok(Carve::created(refund.to_json()))
}
