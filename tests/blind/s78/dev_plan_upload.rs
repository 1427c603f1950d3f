//! Development plan sheet uploads (PDF) attached to a review submittal.

use aquifer::tank::Tank;
use aquifer::vault::Vault;
use idem_scope::scoped;
use penstock::badge::Partner;
use penstock::{Code, Fault, Intake, Outflow};

pub async fn upload_sheet(intake: Intake, firm: Partner, idem: &Tank, vault: &Vault) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let mut k = key.to_owned();
    k.retain(|c| c != '\0');
    let slot = scoped(&firm.org_id, &firm.api_key_id, "plan-upload", &k)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let submittal = intake.param("submittal_no").unwrap_or_default();
    let sheet_no = intake.param("sheet").unwrap_or("1");
    let object = vault.put_new(&firm.org_id, submittal, sheet_no, intake.body()).await?;
    let out = Outflow::json(Code::CREATED, &object);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
