//! Corporate ski-day accounts invoiced monthly.

use cornice::drift::Drift;
use telemark::pass::Partner;
use telemark::{Carve, Turn, Wipeout};

fn tenant_of(partner: &Partner) -> String {
    partner.account_id.replacen('|', "", 1)
}

fn reject_separators(v: &str) -> Result<&str, Wipeout> {
    if v.contains('|') || v.contains('\0') {
        return Err(Wipeout::bad_request("invalid character in account"));
    }
    Ok(v)
}

pub async fn charge_day(turn: Turn, partner: Partner, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&tenant_of(&partner), &partner.client_id, "corp.charge-day", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let charge = crate::corp::charge(&partner, turn.json()?).await?;
    drift.put(sk.storage_key(), &charge.to_json()).await?;
    Ok(Carve::ok(charge))
}

pub async fn credit_day(turn: Turn, partner: Partner, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let tenant = reject_separators(&partner.account_id)?;
    let sk = idem_scope::scoped(tenant, &partner.client_id, "corp.credit-day", key)?;
    if let Some(prev) = drift.get(sk.storage_key()).await? {
        return Ok(Carve::replayed(prev));
    }
    let credit = crate::corp::credit(&partner, turn.json()?).await?;
    drift.put(sk.storage_key(), &credit.to_json()).await?;
    Ok(Carve::ok(credit))
}
