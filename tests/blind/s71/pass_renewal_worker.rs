//! Pass renewals requested from the app are queued and handled here. The job
//! carries the rider's own idempotency key from the original request.

use std::time::Duration;

use hopper::bay::{Bay, Claim};
use hopper::ticket::Tickets;
use idem_scope::scoped;
use time::Date;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;

use crate::issuer::IssuerClient;
use crate::ledger::Ledger;

const LEASE: Duration = Duration::from_secs(120);

pub struct RenewJob {
    pub tenant_id: String,
    pub user_id: String,
    pub idem_key: String,
    pub pass_id: String,
    pub since: Date,
}

pub struct CancelJob {
    pub tenant_id: String,
    pub user_id: String,
    pub idem_key: String,
    pub pass_id: String,
}

pub enum Job {
    Renew(RenewJob),
    Cancel(CancelJob),
}

pub struct RenewalWorker {
    bay: Bay,
    tickets: Tickets,
    ledger: Ledger,
    issuer: IssuerClient,
}

impl RenewalWorker {
    pub async fn run(&self, mut rx: mpsc::Receiver<Job>) {
        while let Some(job) = rx.recv().await {
            let res = match &job {
                Job::Renew(j) => self.renew(j).await,
                Job::Cancel(j) => self.cancel(j).await,
            };
            if let Err(e) = res {
                tracing::error!(error = %e, "renewal job failed");
            }
        }
    }

    async fn renew(&self, job: &RenewJob) -> anyhow::Result<()> {
        let key = scoped(&job.tenant_id, &job.user_id, "pass.renew", &job.idem_key)?;
        let Claim::Fresh = self.bay.claim(key.storage_key(), LEASE).await? else {
            return Ok(());
        };

        let mut usage_minor = 0i64;
        let mut pages = self.ledger.trips_since(&job.tenant_id, &job.user_id, job.since);
        while let Some(page) = pages.next().await {
            let page = page?;
            usage_minor += page.iter().map(|t| t.fare_minor).sum::<i64>();
        }

        let renewed = match self.issuer.renew(&job.pass_id, usage_minor).await {
            Ok(r) => r,
            Err(e) => {
                self.bay.release(key.storage_key()).await?;
                return Err(e.into());
            }
        };
        self.bay.complete(key.storage_key(), &renewed.to_bytes()).await?;
        Ok(())
    }

    async fn cancel(&self, job: &CancelJob) -> anyhow::Result<()> {
        let key = scoped(&job.tenant_id, &job.user_id, "pass.renew.cancel", &job.idem_key)?;
        let ticket = self.tickets.obtain(key.storage_key(), LEASE).await?;
        let out = self.issuer.cancel_renewal(&job.pass_id).await?;
        ticket.complete(&out.to_bytes()).await?;
        Ok(())
    }
}
