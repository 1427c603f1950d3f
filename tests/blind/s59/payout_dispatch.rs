use beanstalkd::Beanstalkd;
use brindle::{Ctx, Reply, Status};
use idem_scope::Problem;
use serde::Deserialize;
use sluice::kv::{Entry, SyncBucket};

use crate::payouts::{dispatch_payout, PayoutOrder};

#[derive(Deserialize)]
struct QueuedPayout {
    tenant_id: String,
    order: PayoutOrder,
}

pub struct PayoutDispatch {
    dedup: SyncBucket,
}

impl PayoutDispatch {
    /// Synchronous path used by the treasury console.
    pub fn dispatch_now(&self, ctx: Ctx) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let order: PayoutOrder = match ctx.json() {
            Ok(o) => o,
            Err(e) => return Reply::status(Status::BAD_REQUEST).text(e.to_string()),
        };
        match self.dedup.entry(key) {
            Entry::Occupied(prev) => Reply::bytes(Status::OK, prev.get().clone()),
            Entry::Vacant(slot) => {
                let out = dispatch_payout(&order);
                slot.insert(out.clone());
                Reply::bytes(Status::CREATED, out)
            }
        }
    }

    /// Tube consumer for payouts queued by the scheduler.
    pub fn run_tube(&self, tube: &str) -> Result<(), beanstalkd::Error> {
        let mut conn = Beanstalkd::localhost()?;
        conn.watch(tube)?;
        loop {
            let (job_id, body) = conn.reserve()?;
            let Ok(job) = serde_json::from_str::<QueuedPayout>(&body) else {
                conn.bury(job_id)?;
                continue;
            };
            if let Entry::Vacant(slot) = self.dedup.entry(&format!("replay:{job_id}")) {
                tracing::info!(tenant = %job.tenant_id, job = job_id, "dispatching scheduled payout");
                slot.insert(dispatch_payout(&job.order));
            }
            conn.delete(job_id)?;
        }
    }
}
