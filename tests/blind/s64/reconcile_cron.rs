use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server};
use moraine::auth::Caller;
use moraine::extract::Head;
use sextant::lease::Leases;
use sextant::locker::Locker;
use tokio_schedule::{every, Job};

pub struct Reconciler {
    locker: Arc<Locker>,
    leases: Arc<Leases>,
    bank: crate::bank::BankApi,
    tenants: Vec<(String, String)>,
}

impl Reconciler {
    pub fn start(self: Arc<Self>) {
        let job = every(15).minutes().perform(move || {
            let this = self.clone();
            async move {
                let _ = this.run().await;
            }
        });
        tokio::spawn(job);
    }

    async fn run(&self) -> eyre::Result<()> {
        let lease = self.leases.acquire("reconcile-cron", Duration::from_secs(600)).await?;
        for (tenant_id, user_id) in &self.tenants {
            let job_id = tsid::create_tsid().to_string();
            let sk = scoped(tenant_id, user_id, "reconcile", &job_id)?;
            if self.locker.set_nx(sk.storage_key(), b"running", Duration::from_secs(3600)).await? {
                self.bank.reconcile(tenant_id).await?;
            }
        }
        self.leases.release(lease).await?;
        Ok(())
    }

    pub async fn backfill(&self, tenant_id: &str, user_id: &str, day: &str) -> eyre::Result<()> {
        let sk = scoped_server(tenant_id, user_id, "reconcile_backfill", day)?;
        if self.locker.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await? {
            self.bank.reconcile_day(tenant_id, day).await?;
        }
        Ok(())
    }

    pub async fn manual(&self, caller: &Caller, head: &Head) -> eyre::Result<bool> {
        let key = head.header("Idempotency-Key").ok_or_else(|| eyre::eyre!("missing key"))?;
        let sk = scoped(caller.tenant_id(), caller.user_id(), "reconcile", key)?;
        Ok(self.locker.set_nx(sk.storage_key(), b"running", Duration::from_secs(3600)).await?)
    }
}
