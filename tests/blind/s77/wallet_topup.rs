//! Resort wallet (cashless wristband) top-ups from the app.

use cornice::drift::Drift;
use idem_scope::scoped;
use telemark::pass::MaybeSkier;
use telemark::{Carve, Turn, Wipeout};

pub async fn top_up(turn: Turn, who: MaybeSkier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let user_id = who.user_id.clone().ok_or_else(Wipeout::unauthorized)?;
    let org_id = who.org_id.clone().unwrap_or_default();

    let sk = scoped(&org_id, &user_id, "wallet.topup", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let amount: crate::wallet::TopUp = turn.json()?;
    let receipt = crate::wallet::credit(&user_id, &amount).await?;
    drift.put(sk.storage_key(), &receipt.to_json()).await?;
    Ok(Carve::ok(receipt))
}
