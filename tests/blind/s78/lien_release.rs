//! Lien releases requested by title companies once a final bill is paid.

use aquifer::basin::Basin;
use aquifer::tank::Tank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Partner;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct ReleaseRequest {
    parcel: String,
    escrow_no: String,
}

pub enum LienStatus {
    Paid,
    Open { balance_cents: i64 },
    Released,
}

pub async fn request_release(intake: Intake, title_co: Partner, tank: &Tank, basin: &Basin) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&title_co.org_id, &title_co.api_key_id, "lien-release", key)?;
    let req: ReleaseRequest = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("lien-release", intake.body())).await?;
    let filed = match crate::liens::ledger().status(&title_co.org_id, &req.parcel).await {
        Ok(LienStatus::Paid) => crate::liens::recorder().file_release(&req.parcel, &req.escrow_no).await,
        Ok(LienStatus::Open { balance_cents }) => {
            tank.release(ck.storage_key()).await?;
            return Ok(Outflow::json(Code::CONFLICT, &balance_cents));
        }
        Ok(LienStatus::Released) => unreachable!("lien on {} released twice", req.parcel),
        Err(e) => {
            tank.release(ck.storage_key()).await?;
            return Err(e.into());
        }
    };
    let doc = match filed {
        Ok(doc) => doc,
        Err(e) => {
            tank.release(ck.storage_key()).await?;
            return Err(e.into());
        }
    };
    let mut tx = basin.begin().await?;
    tx.sql("UPDATE liens SET released_doc = $1 WHERE parcel = $2").bind(&doc.number).bind(&req.parcel).exec().await?;
    tx.commit().await?;
    let out = Outflow::json(Code::CREATED, &doc);
    tank.complete(ck.storage_key(), &out).await?;
    Ok(out)
}
