//! Trip history exports (CSV or PDF, for tax receipts and employers). Exports
//! are generated in the background; retrying the request returns the same
//! export job instead of queueing another one.

use std::fmt;

use hopper::bay::Bay;
use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::exports::Exporter;

struct ExportSlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

impl fmt::Display for ExportSlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}|{}|{}|{}", self.tenant_id, self.user_id, self.route, self.key)
    }
}

struct ExportFile<'a> {
    user_id: &'a str,
    year: i32,
    ext: &'a str,
}

impl fmt::Display for ExportFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trips-{}-{}.{}", self.user_id, self.year, self.ext)
    }
}

#[derive(Decode)]
pub struct ExportRequest {
    pub year: i32,
    pub format: String,
}

pub struct Exports {
    jobs: Bay,
    exporter: Exporter,
}

impl Exports {
    pub async fn request(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: ExportRequest = hail.json()?;

        let slot = ExportSlot { tenant_id: &rider.tenant_id, user_id: &rider.user_id, route: "exports.create", key: k }.to_string();
        if let Some(job_id) = self.jobs.get(&slot).await? {
            return Ok(Answer::json(Code::Ok, &wharf::json!({ "job": String::from_utf8_lossy(&job_id) })));
        }

        let file = ExportFile { user_id: &rider.user_id, year: req.year, ext: &req.format }.to_string();
        let job_id = self.exporter.enqueue(&rider.tenant_id, &rider.user_id, req.year, &file).await?;
        self.jobs.put(&slot, job_id.as_bytes().to_vec()).await?;
        Ok(Answer::json(Code::Accepted, &wharf::json!({ "job": job_id })))
    }
}
