//! New service connection applications (blocking handlers on the permit worker pool).

use aquifer::tank::SyncTank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Partner;
use penstock::blocking::Intake;
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct ConnectionApp {
    parcel: Option<String>,
    meter_size: String,
    fire_line: bool,
    backflow_assembly: Option<String>,
}

fn check_app(app: &ConnectionApp) -> Result<(), Fault> {
    if app.fire_line && app.backflow_assembly.is_none() {
        return Err(Fault::status(Code::UNPROCESSABLE_ENTITY, "fire lines need a backflow assembly"));
    }
    Ok(())
}

pub fn apply(intake: &Intake, firm: &Partner, tank: &SyncTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&firm.org_id, &firm.api_key_id, "new-connection", key)?;
    let app: ConnectionApp = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("new-connection", intake.body()))?;
    let validate = |app: &ConnectionApp| -> Result<String, Fault> {
        let parcel = app
            .parcel
            .clone()
            .ok_or_else(|| Fault::status(Code::UNPROCESSABLE_ENTITY, "parcel required"))?;
        check_app(app)?;
        Ok(parcel)
    };
    let parcel = validate(&app)?;
    let permit = crate::permits::connections().open(&firm.org_id, &parcel, &app.meter_size)?;
    let out = Outflow::json(Code::CREATED, &permit);
    tank.complete(ck.storage_key(), &out)?;
    Ok(out)
}

pub fn amend(intake: &Intake, firm: &Partner, tank: &SyncTank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&firm.org_id, &firm.api_key_id, "connection-amend", key)?;
    let app: ConnectionApp = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("connection-amend", intake.body()))?;
    let release_on_err = |e: Fault| {
        let _ = tank.release(ck.storage_key());
        e
    };
    check_app(&app).map_err(release_on_err)?;
    let permit_no = intake.param("permit_no").unwrap_or_default();
    let permit = crate::permits::connections()
        .amend(&firm.org_id, permit_no, &app.meter_size)
        .map_err(|e| release_on_err(e.into()))?;
    let out = Outflow::json(Code::OK, &permit);
    tank.complete(ck.storage_key(), &out)?;
    Ok(out)
}
