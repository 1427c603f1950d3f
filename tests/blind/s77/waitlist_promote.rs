//! Ski-school waitlist: when a seat frees up, the promoter books the next
//! guest on their behalf. Guests can also book directly with a client key.

use cornice::drift::Drift;
use idem_scope::Namespace;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};
use uuid::Uuid;

pub async fn book_direct(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "school.book", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let seat = crate::school::book(&skier, turn.json()?).await?;
    drift.put(sk.storage_key(), &seat.to_json()).await?;
    Ok(Carve::created(seat.to_json()))
}

pub async fn promote_next(drift: &Drift, lesson_id: &str) -> anyhow::Result<()> {
    let mint = || Uuid::now_v7().to_string();
    let Some(next) = crate::school::waitlist_head(lesson_id).await? else {
        return Ok(());
    };
    let attempt = mint();
    let sk = idem_scope::scoped(&next.tenant_id, &next.user_id, "school.book", &attempt)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(());
    }
    let seat = crate::school::book_for(&next, lesson_id).await?;
    drift.put(sk.storage_key(), &seat.to_json()).await?;

    let notice = mint();
    let nk = idem_scope::ScopedKey::build(Namespace::Server, &next.tenant_id, &next.user_id, "school.notify", &notice)?;
    drift.put(nk.storage_key(), b"queued").await?;
    Ok(())
}
