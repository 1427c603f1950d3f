//! Search reindexing: customers ask for a reindex over HTTP, the nightly
//! rexecutor job also reindexes stale tenants.

use granary::crib::Crib;
use granary::lease::Leases;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use rexecutor::prelude::*;
use std::time::Duration;

pub async fn request_reindex(crib: &Crib, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = crib.get(&m.org_id, &m.user_id, "search.reindex", k).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::search::reindex(&m.org_id).await;
    let _ = crib.put(&m.org_id, &m.user_id, "search.reindex", k, out.clone()).await;
    Reply::bytes(Status::Accepted, out)
}

pub struct NightlyReindex;

#[async_trait::async_trait]
impl Job for NightlyReindex {
    type Data = (String, Crib, Leases);
    type Metadata = ();
    const NAME: &'static str = "nightly_reindex";
    const MAX_ATTEMPTS: u16 = 3;

    async fn execute(job: ExecutionContext<Self>) -> ExecutionResult {
        let (org_id, crib, leases) = &job.data;
        let lease = leases.acquire(&format!("reindex:{}", job.id), Duration::from_secs(600)).await;
        let out = crate::search::reindex(org_id).await;
        let _ = crib.put(org_id, "system", "search.reindex", &job.id.to_string(), out).await;
        if let Ok(l) = lease {
            let _ = leases.release(l).await;
        }
        ExecutionResult::Done
    }
}
