//! Slopepay (card acquirer) webhooks and the matching client-initiated capture.

use cornice::drift::Drift;
use idem_scope::{scoped, scoped_server};
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

#[derive(serde::Deserialize)]
pub struct SlopepayEvent {
    pub id: String,
    pub kind: String,
    pub merchant_id: String,
    pub api_key_id: String,
}

pub async fn capture(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = scoped(&skier.tenant_id, &skier.user_id, "payments.capture", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let cap = crate::payments::capture(&skier, turn.json()?).await?;
    drift.put(sk.storage_key(), &cap.to_json()).await?;
    Ok(Carve::ok(cap))
}

pub async fn webhook(turn: Turn, drift: &Drift) -> Result<Carve, Wipeout> {
    crate::slopepay::verify(turn.header("Slopepay-Signature"), turn.body())?;
    let evt: SlopepayEvent = serde_json::from_slice(turn.body()).map_err(Wipeout::bad_json)?;

    let sk = scoped(&evt.merchant_id, &evt.api_key_id, "payments.webhook", &evt.id)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::ok("duplicate"));
    }
    crate::payments::apply_event(&evt.kind, &evt.id).await?;
    drift.put(sk.storage_key(), b"{}").await?;
    Ok(Carve::ok("applied"))
}

pub async fn webhook_v2(turn: Turn, drift: &Drift) -> Result<Carve, Wipeout> {
    crate::slopepay::verify(turn.header("Slopepay-Signature"), turn.body())?;
    let evt: SlopepayEvent = serde_json::from_slice(turn.body()).map_err(Wipeout::bad_json)?;

    let sk = scoped_server(&evt.merchant_id, &evt.api_key_id, "payments.webhook", &evt.id)?;
    if drift.exists(sk.storage_key()).await? {
        return Ok(Carve::ok("duplicate"));
    }
    crate::payments::apply_event(&evt.kind, &evt.id).await?;
    drift.put(sk.storage_key(), b"{}").await?;
    Ok(Carve::ok("applied"))
}
