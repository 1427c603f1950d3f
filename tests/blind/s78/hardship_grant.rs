//! Customer assistance (hardship grant) applications screened by the state agency.

use aquifer::tank::Tank;
use idem_scope::{scoped, ClaimGuard, Fingerprint};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct HardshipApplication {
    household_size: u8,
    monthly_income_cents: i64,
    documents: Vec<String>,
}

pub async fn apply(intake: Intake, who: Customer, tank: Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "hardship-apply", key)?;
    let fp = Fingerprint::of("hardship-apply", intake.body());
    let app: HardshipApplication = intake.json()?;
    let task = tokio::spawn(async move {
        tank.claim(ck.storage_key(), &fp).await?;
        let eligibility = crate::assistance::agency()
            .screen(app.household_size, app.monthly_income_cents, &app.documents)
            .await?;
        let case = crate::assistance::cases()
            .open(&who.tenant_id, &who.user_id, &eligibility)
            .await?;
        let out = Outflow::json(Code::ACCEPTED, &case);
        tank.complete(ck.storage_key(), &out).await?;
        Ok::<_, Fault>(out)
    });
    task.await.map_err(|_| Fault::status(Code::INTERNAL_SERVER_ERROR, "screening task failed"))?
}

pub async fn withdraw(intake: Intake, who: Customer, tank: Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "hardship-withdraw", key)?;
    let fp = Fingerprint::of("hardship-withdraw", intake.body());
    tank.claim(ck.storage_key(), &fp).await?;
    let releaser = tank.clone();
    let held = ck.clone();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = releaser.release(held.storage_key()).await;
        });
    });
    let case_no = intake.param("case_no").unwrap_or_default();
    let closed = crate::assistance::cases().withdraw(&who.tenant_id, case_no).await?;
    let out = Outflow::json(Code::OK, &closed);
    tank.complete(ck.storage_key(), &out).await?;
    guard.complete();
    Ok(out)
}
