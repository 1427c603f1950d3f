//! Ski and board rental checkout at the shop counter.

use cornice::drift::Drift;
use telemark::pass::Staff;
use telemark::{Carve, Turn, Wipeout};

fn slot(tenant: &str, caller: &str, key: &str) -> String {
    [tenant, caller, "rental.checkout", key].join("|")
}

fn shelf(shop_id: &str, sku: &str) -> String {
    ["rental", shop_id, sku].join(":")
}

pub async fn checkout(turn: Turn, staff: Staff, drift: &Drift) -> Result<Carve, Wipeout> {
    let key = turn
        .header("Idempotency-Key")
        .ok_or_else(|| Wipeout::problem(idem_scope::Problem::missing_key()))?;

    let at = slot(&staff.tenant_id, &staff.sub, key);
    if drift.exists(&at).await? {
        return Ok(Carve::conflict("checkout already recorded"));
    }

    let line: crate::rental::Line = turn.json()?;
    let stock = drift.get(&shelf(&line.shop_id, &line.sku)).await?;
    let receipt = crate::rental::issue(&line, stock)?;
    drift.put(&at, &receipt.to_bytes()).await?;
    Ok(Carve::created(receipt))
}
