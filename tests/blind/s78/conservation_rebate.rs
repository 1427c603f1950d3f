//! Conservation rebates: low-flow toilets, smart irrigation controllers, turf removal.

use aquifer::tank::Tank;
use idem_scope::{scoped, Problem, ScopedKey};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct RebateClaim {
    product_sku: String,
    receipt_no: String,
    installed_on: String,
}

pub async fn claim_rebate(intake: Intake, who: Customer, rebates: &Tank) -> Result<Outflow, Fault> {
    let slot: ScopedKey = intake
        .header("Idempotency-Key")
        .ok_or_else(Problem::missing_key)
        .and_then(|k| scoped(&who.tenant_id, &who.user_id, "", k).map_err(|e| Problem::invalid_key(&e.to_string())))
        .map_err(Fault::problem)?;
    if let Some(prev) = rebates.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let claim: RebateClaim = intake.json()?;
    let sku = claim.product_sku.replace('/', "-");
    let product = crate::catalogue::lookup(&sku).await?;
    let rebate = crate::conservation::rebates()
        .submit(&who.tenant_id, &who.user_id, &product, &claim.receipt_no, &claim.installed_on)
        .await?;
    let out = Outflow::json(Code::CREATED, &rebate);
    rebates.put(slot.storage_key(), &out).await?;
    Ok(out)
}
