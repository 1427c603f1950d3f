//! Bridge from the legacy student-information system (a COBOL batch that
//! pads fixed-width fields with NULs). Enrolment changes arrive over HTTP from
//! the SIS connector with the organisation code taken from the fixed record.

use idem_scope::scoped;
use lectern::card::ServiceAccount;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::sis::Roster;

#[derive(Deserialize)]
pub struct SisRecord {
    pub org: String,
    pub student_id: String,
    pub section: String,
    pub action: String,
    pub remarks: String,
}

pub struct Bridge {
    pub pouch: Pouch,
    pub roster: Roster,
}

pub async fn apply_change(ask: &Ask, bridge: &Bridge) -> Result<Tell, Hitch> {
    let svc = ask.badge::<ServiceAccount>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let rec: SisRecord = ask.json()?;
    let org_id = rec.org.replace("\0", "");

    let sk = scoped(&org_id, &svc.client_id, "/v1/sis/enrolment-changes", key)?;
    if let Some(done) = bridge.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let remarks = rec.remarks.replace("\0", "");
    let applied = bridge.roster.apply(&org_id, &rec.student_id, &rec.section, &rec.action, &remarks).await?;
    let body = serde_json::to_vec(&applied)?;
    bridge.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
