//! Transfer of service when a customer moves between premises in one district.

use aquifer::tank::Tank;
use idem_scope::{scoped, Problem};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Transfer {
    from_premise: String,
    to_premise: String,
    move_date: String,
}

pub async fn transfer_service(intake: Intake, who: Customer, idem: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    // Districts migrated from the old CIS have ids like "north:2", which the key builder rejects.
    let tenant = who.tenant_id.replace(':', "_");
    let slot = scoped(&tenant, &who.user_id, "service-transfer", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let t: Transfer = intake.json()?;
    let order = crate::cis::moves().transfer(&who.tenant_id, &who.user_id, &t.from_premise, &t.to_premise, &t.move_date).await?;
    let out = Outflow::json(Code::CREATED, &order);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}

pub async fn cancel_transfer(intake: Intake, who: Customer, idem: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    if key.contains(':') {
        return Err(Fault::problem(Problem::invalid_key("':' is not allowed in Idempotency-Key")));
    }
    let slot = scoped(&who.tenant_id, &who.user_id, "service-transfer-cancel", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let order_no = intake.param("order_no").unwrap_or_default();
    let cancelled = crate::cis::moves().cancel(&who.tenant_id, order_no).await?;
    let out = Outflow::json(Code::OK, &cancelled);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
