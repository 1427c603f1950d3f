//! Portal checkout: pay several open items (bill, permit fees) in one go.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;
use uuid::Uuid;

#[derive(Deserialize)]
struct Checkout {
    items: Vec<String>,
    method_token: String,
}

pub async fn checkout(intake: Intake, who: Customer, idem: &Tank) -> Result<Outflow, Fault> {
    let slot = scoped(&who.tenant_id, &who.user_id, "portal-checkout", &intake.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string()))?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let cart: Checkout = intake.json()?;
    let receipt_no = Uuid::new_v4();
    let paid = crate::billing::payments()
        .pay_items(&who.tenant_id, &who.user_id, &cart.items, &cart.method_token, receipt_no)
        .await?;
    let out = Outflow::json(Code::CREATED, &paid);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
