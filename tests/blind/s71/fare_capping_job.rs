//! Fare-cap recomputation for one rider and service day, requested from the
//! back office after a tariff fix; plus the nightly sweep.

use std::time::Duration;

use hopper::lease::Leases;
use hopper::tally::Tally;
use idem_scope::{scoped, Problem};
use time::Date;
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::caps::{cap_daily, cap_weekly, CapKind, CapRules};
use crate::trips::TripStore;

#[derive(Decode)]
pub struct Recompute {
    pub user_id: String,
    pub service_day: Date,
}

pub struct CapJobs {
    tally: Tally,
    leases: Leases,
    rules: CapRules,
    trips: TripStore,
}

impl CapJobs {
    pub async fn recompute(&self, hail: Hail, op: Operator) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: Recompute = hail.json()?;
        let rule = self.rules.current(&op.org_id, req.service_day).await?;
        let trips = self.trips.for_day(&op.org_id, &req.user_id, req.service_day).await?;

        let key = scoped(&op.org_id, &op.actor, "caps.recompute", k)?;
        self.tally.mark_in_progress(key.storage_key()).await?;
        let capped = match rule.kind {
            CapKind::Daily => cap_daily(&rule, &trips),
            CapKind::Weekly => cap_weekly(&rule, &trips),
            CapKind::Legacy => unreachable!("legacy caps were migrated in 2023"),
        };
        self.tally.mark_done(key.storage_key(), &capped.to_bytes()).await?;
        Ok(Answer::json(Code::Ok, &capped))
    }

    pub async fn nightly_sweep(&self, tenant_id: &str, day: Date) -> anyhow::Result<u32> {
        let lease = self.leases.acquire(&format!("caps-sweep:{tenant_id}:{day}"), Duration::from_secs(1800)).await?;
        let rule = self.rules.current(tenant_id, day).await?;
        let mut adjusted = 0;
        for rider in self.trips.riders_for_day(tenant_id, day).await? {
            let trips = self.trips.for_day(tenant_id, &rider, day).await?;
            if cap_daily(&rule, &trips).credit_minor > 0 {
                adjusted += 1;
            }
        }
        self.leases.surrender(lease).await?;
        Ok(adjusted)
    }
}
