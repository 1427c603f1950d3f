//! Chargeback responses: CSRs send evidence for a disputed card payment.

use std::panic::AssertUnwindSafe;

use aquifer::tank::{SyncTank, Tank};
use aquifer::vault::Vault;
use idem_scope::{scoped, Fingerprint, Problem, ScopeError};
use penstock::badge::Staff;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Evidence {
    case_no: String,
    reason: String,
    pdf_base64: String,
}

pub async fn respond(intake: Intake, staff: Staff, tank: &Tank, vault: &Vault) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = match scoped(&staff.tenant_id, &staff.user_id, "chargeback-respond", key) {
        Ok(ck) => ck,
        Err(ScopeError::ContainsSeparator(c)) => return Err(Fault::problem(Problem::invalid_key(&format!("{c:?} contains a separator")))),
        Err(e) => return Err(Fault::problem(Problem::invalid_key(&e.to_string()))),
    };
    let ev: Evidence = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("chargeback-respond", intake.body())).await?;
    let outcome = async {
        let pdf = data_encoding::BASE64.decode(ev.pdf_base64.as_bytes())?;
        let evidence_sha256 = hex::encode(libcrux_sha2::sha256(&pdf));
        let evidence_path = format!("chargebacks/{}/{}.pdf", staff.tenant_id, ev.case_no);
        vault.put(&evidence_path, &pdf).await?;
        let reason = ev.reason.replace('|', "/");
        let filed = crate::processor::disputes().respond(&ev.case_no, &reason, &evidence_path, &evidence_sha256).await?;
        Ok::<_, Fault>(Outflow::json(Code::ACCEPTED, &filed))
    }
    .await;
    match outcome {
        Ok(out) => {
            tank.complete(ck.storage_key(), &out).await?;
            Ok(out)
        }
        Err(e) => {
            tank.release(ck.storage_key()).await?;
            Err(e)
        }
    }
}

pub fn respond_offline(intake: &penstock::blocking::Intake, staff: &Staff, tank: &SyncTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&staff.tenant_id, &staff.user_id, "chargeback-respond", key)?;
    tank.claim(ck.storage_key(), &Fingerprint::of("chargeback-respond", intake.body()))?;
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| crate::processor::disputes().respond_blocking(intake.body())));
    match result {
        Ok(Ok(filed)) => {
            let out = Outflow::json(Code::ACCEPTED, &filed);
            tank.complete(ck.storage_key(), &out)?;
            Ok(out)
        }
        Ok(Err(e)) => {
            tank.release(ck.storage_key())?;
            Err(e.into())
        }
        Err(panic) => {
            let _ = tank.release(ck.storage_key());
            std::panic::resume_unwind(panic)
        }
    }
}

pub async fn withdraw(intake: Intake, staff: Staff, tank: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&staff.tenant_id, &staff.user_id, "chargeback-withdraw", key)?;
    let pending = tank.begin(ck.storage_key(), &Fingerprint::of("chargeback-withdraw", intake.body())).await?;
    let case_no = intake.param("case_no").ok_or_else(|| Fault::status(Code::BAD_REQUEST, "case_no"))?;
    let withdrawn = crate::processor::disputes().withdraw(case_no).await?;
    let out = Outflow::json(Code::OK, &withdrawn);
    pending.complete(&out).await?;
    Ok(out)
}
