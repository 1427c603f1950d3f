//! Irrigation variance permits: watering outside the drought schedule.

use aquifer::tank::ByteTank;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct VarianceForm {
    zone: Option<String>,
    reason: String,
    days: Vec<String>,
}

fn cbor_slot<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    ciborium::into_writer(value, &mut out).expect("in-memory writer");
    out
}

pub async fn request_variance(intake: Intake, who: Customer, variances: &ByteTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?
        .to_owned();
    let slot = cbor_slot(&(who.user_id.as_str(), "irrigation-variance", key.as_str()));
    if let Some(prev) = variances.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let form: VarianceForm = intake.form()?;
    let zone = form.zone.unwrap_or_default();
    let permit = crate::conservation::variances()
        .issue(&who.tenant_id, &who.user_id, &zone, &form.reason, &form.days)
        .await?;
    let out = Outflow::json(Code::CREATED, &permit);
    variances.put(&slot, &out).await?;
    Ok(out)
}
