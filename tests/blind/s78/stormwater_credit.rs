//! Stormwater fee credits for commercial properties with on-site detention.

use aquifer::basin::Basin;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct CreditApplication {
    parcel: String,
    impervious_sqft: u32,
    detention_cuft: u32,
    engineer_stamp: String,
}

pub async fn apply_credit(intake: Intake, who: Customer, basin: &Basin) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "stormwater-credit", key)?;
    let cols = ck.columns();
    let fp = Fingerprint::of("stormwater-credit", intake.body());
    basin.sql("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress')")
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .bind(fp.as_bytes().as_slice())
        .exec()
        .await?;
    let app: CreditApplication = intake.json()?;
    let review = crate::stormwater::engineering().review(&app.parcel, app.impervious_sqft, app.detention_cuft, &app.engineer_stamp).await?;
    let credit = crate::stormwater::credits().grant(&who.tenant_id, &app.parcel, &review).await?;
    let out = Outflow::json(Code::CREATED, &credit);
    basin
        .sql("UPDATE idempotency_records SET status = 'completed', response = $7 WHERE scope_version = $1 AND tenant_id = $2 AND principal_id = $3 AND route = $4 AND ns = $5 AND idem_key = $6")
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .bind(out.to_bytes())
        .exec()
        .await?;
    Ok(out)
}
