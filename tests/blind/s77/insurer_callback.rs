//! Coverwise (ski-accident insurance) policy callbacks. Guests buy cover in
//! the app with a client key; Coverwise confirms asynchronously.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn buy_cover(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "cover.buy", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let quote = crate::cover::buy(&skier, turn.json()?).await?;
    let upstream = crate::coverwise::Client::from_env()
        .post("/policies")
        .header("Idempotency-Key", sk.storage_key())
        .json(&quote)
        .send()
        .await?;
    drift.put(sk.storage_key(), &upstream.bytes().await?).await?;
    Ok(Carve::created(quote))
}

pub async fn callback(turn: Turn, drift: &Drift, seen: &Drift) -> Result<Carve, Wipeout> {
    crate::coverwise::verify(&turn)?;
    let delivery = turn.header("X-Coverwise-Delivery").ok_or_else(|| Wipeout::bad_request("delivery"))?;
    let note: crate::coverwise::PolicyNote = turn.json()?;

    let sk = idem_scope::scoped(&note.account_id, &note.user_id, "cover.callback", delivery)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::ok("dup"));
    }
    crate::cover::confirm(&note).await?;
    drift.put(sk.storage_key(), b"ok").await?;

    seen.put(&format!("coverwise:{}", delivery), b"1").await?;
    Ok(Carve::ok("confirmed"))
}
