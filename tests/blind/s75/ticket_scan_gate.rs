//! Door scanners. Each scan is posted once per ticket; scanners retry until
//! they get an answer. Scanners on festival sites are not bound to a venue
//! group until they are enrolled.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(12 * 3600);

#[derive(Deserialize)]
pub struct Scanner {
    pub client_id: Option<String>,
    pub org_id: Option<String>,
    pub gate: Option<u16>,
}

#[derive(Deserialize)]
pub struct Scan {
    pub barcode: String,
    pub performance_id: String,
}

pub struct Doors {
    pub batten: Batten,
    pub scanners: crate::doors::Enrolment,
    pub admissions: crate::doors::Admissions,
}

pub async fn post_scan(cue: Cue, doors: House<Doors>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    let device = cue.header("X-Scanner-Id").ok_or_else(|| Flub::unauthorized("unknown scanner"))?;
    let scanner: Scanner = doors.scanners.lookup(device).await?;
    let Some(client_id) = scanner.client_id.as_deref() else {
        return Ok(Curtain::new(403).text("scanner is not enrolled"));
    };
    let org = scanner.org_id.as_deref().unwrap_or("*");
    let gate = scanner.gate.unwrap_or(0);
    let scan: Scan = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let sk = scoped(org, client_id, "door_scan", key).map_err(Flub::bad_request)?;
    if let Some(previous) = doors.batten.get(sk.storage_key()).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let verdict = doors.admissions.admit(org, &scan.performance_id, &scan.barcode, gate).await?;
    doors.batten.put(sk.storage_key(), verdict.to_bytes(), KEEP).await?;
    Ok(Curtain::json(200, &verdict))
}
