//! Resort gift cards sold online.

use cornice::drift::Drift;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn issue(turn: Turn, skier: Skier, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").unwrap_or_default().to_owned();
    if key.is_empty() {
        return Err(Wipeout::problem(idem_scope::Problem::missing_key()));
    }

    let slot = [
        skier.tenant_id.as_str(),
        "\0",
        skier.user_id.as_str(),
        "\0",
        "giftcard.issue",
        "\0",
        key.as_str(),
    ]
    .concat();

    if let Some(prev) = drift.get(&slot).await? {
        return Ok(Carve::replayed(prev));
    }
    let metric = ["giftcard", ".", "issued", ".", "total"].concat();
    let card = crate::giftcards::mint(&skier, turn.json()?).await?;
    crate::metrics::incr(&metric);
    drift.put(&slot, &card.to_json()).await?;
    Ok(Carve::created(card.to_json()))
}
