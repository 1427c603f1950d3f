//! Annual backflow-assembly test results submitted by certified testers.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Tester;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct TestReport {
    assembly_serial: String,
    passed: bool,
    check_valve_psi: f32,
    tester_name: String,
}

pub async fn submit_test(intake: Intake, tester: Tester, replay_store: &Tank) -> Result<Outflow, Fault> {
    let raw_key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let key: String = raw_key.chars().filter(|c| *c != '|').collect();
    let slot = scoped(&tester.tenant_id, &tester.caller_id, "backflow-test", &key)?;
    if let Some(prev) = replay_store.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let report: TestReport = intake.json()?;
    let display_name: String = report.tester_name.chars().filter(|c| c.is_alphanumeric() || *c == ' ').collect();
    let filed = crate::backflow::registry()
        .file(&tester.tenant_id, &tester.caller_id, &report.assembly_serial, report.passed, report.check_valve_psi, &display_name)
        .await?;
    let out = Outflow::json(Code::CREATED, &filed);
    replay_store.put(slot.storage_key(), &out).await?;
    Ok(out)
}
