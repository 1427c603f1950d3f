//! Boil-water notice SMS subscriptions (portal opt-in).

use aquifer::wire::{self, Conn};
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct OptIn {
    phone_e164: String,
    pressure_zones: Vec<String>,
}

pub async fn opt_in(intake: Intake, who: Customer, mut conn: Conn) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "boil-notice-opt-in", key)?;
    let slot = ck.storage_key().to_owned();
    let fresh: bool = wire::cmd("SET").arg(&slot).arg("in_progress").arg("NX").arg("PX").arg(60_000).query(&mut conn).await?;
    if !fresh {
        let prev: Option<Vec<u8>> = wire::cmd("GET").arg(&slot).query(&mut conn).await?;
        return Ok(Outflow::replayed_or_conflict(prev));
    }
    let req: OptIn = intake.json()?;
    if crate::sms::carrier().is_blocked(&req.phone_e164).await {
        return Ok(Outflow::status(Code::UNPROCESSABLE_ENTITY, "number cannot receive alerts"));
    }
    let sub = crate::notices::subscriptions()
        .opt_in(&who.tenant_id, &who.user_id, &req.phone_e164, &req.pressure_zones)
        .await
        .map_err(|e| {
            let _ = wire::cmd("DEL").arg(&slot).spawn_on(&conn);
            Fault::from(e)
        })?;
    let out = Outflow::json(Code::CREATED, &sub);
    let _: () = wire::cmd("SET").arg(&slot).arg(out.to_bytes()).arg("PX").arg(86_400_000).query(&mut conn).await?;
    Ok(out)
}

pub async fn opt_out(intake: Intake, who: Customer, records: aquifer::records::Records) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "boil-notice-opt-out", key)?;
    if !records.insert_if_absent(ck.storage_key(), "in_progress").await? {
        return Ok(Outflow::status(Code::CONFLICT, "already processing"));
    }
    let done = crate::notices::subscriptions().opt_out(&who.tenant_id, &who.user_id).await;
    match done {
        Ok(sub) => {
            let out = Outflow::json(Code::OK, &sub);
            records.save_response(ck.storage_key(), &out).await?;
            Ok(out)
        }
        Err(e) => {
            records.delete(ck.storage_key()).await?;
            Err(e.into())
        }
    }
}
