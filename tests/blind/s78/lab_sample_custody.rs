//! Chain-of-custody check-in for compliance samples delivered by contract samplers.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Tester;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Custody {
    bottle_label: String,
    site_code: String,
    collected_at: String,
    temperature_c: f32,
}

pub async fn check_in(intake: Intake, sampler: Tester, idem: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let parts: Vec<String> = [sampler.tenant_id.as_str(), sampler.caller_id.as_str(), "sample-custody", key].iter().map(|c| c.replace('|', "")).collect();
    let slot = scoped(&parts[0], &parts[1], &parts[2], &parts[3])?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let c: Custody = intake.json()?;
    let printed = c.bottle_label.replace('|', "/");
    let received = crate::lab::lims()
        .receive(&sampler.tenant_id, &sampler.caller_id, &c.site_code, &c.collected_at, c.temperature_c, &printed)
        .await?;
    let out = Outflow::json(Code::CREATED, &received);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
