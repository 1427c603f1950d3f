//! Nightly autoload: riders whose balance is under their threshold get
//! topped up from their saved card. Riders can also trigger an autoload from
//! the app; both paths write the `charges` bay.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferroid::{BasicSnowflakeGenerator, MonotonicClock, SnowflakeTwitterId};
use hopper::bay::Bay;
use hopper::lease::Leases;
use idem_scope::{scoped, Problem};
use scheduled_thread_pool::ScheduledThreadPool;
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::plans::PlanBook;
use crate::psp::PspClient;

type RunIds = BasicSnowflakeGenerator<SnowflakeTwitterId, MonotonicClock>;

pub struct AutoloadRunner {
    charges: Bay,
    leases: Leases,
    plans: PlanBook,
    psp: PspClient,
    ids: Mutex<RunIds>,
}

impl AutoloadRunner {
    /// `POST /v1/autoload/run` from the app.
    pub async fn trigger_now(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "autoload.charge", k)?;
        if let Some(prev) = self.charges.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let plan = self.plans.for_rider(&rider.tenant_id, &rider.user_id).await?;
        let receipt = self.psp.charge_card(&rider.tenant_id, &plan.card_id, plan.amount_minor).await?;
        self.charges.put(key.storage_key(), receipt.reference.clone().into_bytes()).await?;
        Ok(Answer::json(Code::Created, &receipt))
    }

    fn next_run_id(&self) -> SnowflakeTwitterId {
        let mut gen = self.ids.lock().expect("run id generator poisoned");
        gen.next_id()
    }

    pub async fn nightly(&self) -> anyhow::Result<()> {
        let lease = self.leases.acquire("autoload-nightly", Duration::from_secs(3600)).await?;
        let run_id = self.next_run_id();
        tracing::info!(run = %run_id, "autoload run started");

        for plan in self.plans.due().await? {
            let key = scoped(&plan.tenant_id, &plan.user_id, "autoload.charge", &run_id.to_string())?;
            if self.charges.exists(key.storage_key()).await? {
                continue;
            }
            let receipt = self.psp.charge_card(&plan.tenant_id, &plan.card_id, plan.amount_minor).await?;
            self.charges.put(key.storage_key(), receipt.reference.into_bytes()).await?;
        }
        self.leases.surrender(lease).await?;
        Ok(())
    }
}

pub fn schedule(runner: Arc<AutoloadRunner>, rt: tokio::runtime::Handle) -> ScheduledThreadPool {
    let pool = ScheduledThreadPool::new(1);
    pool.execute_at_fixed_rate(Duration::from_secs(60), Duration::from_secs(86_400), move || {
        if let Err(e) = rt.block_on(runner.nightly()) {
            tracing::error!(error = %e, "autoload run failed");
        }
    });
    pool
}
