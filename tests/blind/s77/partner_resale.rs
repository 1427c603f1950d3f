//! Tour-operator resale of lift passes; operators act for an org passed in a header.

use cornice::drift::Drift;
use idem_scope::scoped;
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

pub async fn resell(turn: Turn, partner: Partner, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let org = turn.header("X-Operator-Org").unwrap_or("public");
    let sk = scoped(org, &partner.client_id, "resale.sell", key)?;

    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let sale = crate::resale::sell(&partner, turn.json()?).await?;
    drift.put(sk.storage_key(), &sale.to_json()).await?;
    Ok(Carve::created(sale.to_json()))
}

pub async fn refund_resale(turn: Turn, partner: Partner, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let org = turn.header("X-Operator-Org").unwrap_or(&partner.account_id);
    let sk = scoped(org, &partner.client_id, "resale.refund", key)?;

    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let refund = crate::resale::refund(&partner, turn.json()?).await?;
    drift.put(sk.storage_key(), &refund.to_json()).await?;
    Ok(Carve::ok(refund))
}
