use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use job_scheduler_ng::{Job, JobScheduler};
use quarry::kv::Vault;
use quarry::lease::LeaseTable;
use svix_ksuid::{Ksuid, KsuidLike};
use tokio::runtime::Handle;
use wicket::auth::Caller;
use wicket::{Ctx, Reply, Status};

pub struct Invoicing {
    vault: Arc<Vault>,
    leases: Arc<LeaseTable>,
    tenants: tenants::Directory,
    generator: invoices::Generator,
}

impl Invoicing {
    pub async fn generate_now(&self, ctx: &Ctx, caller: &Caller) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "invoices.generate", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let run = self.generator.run_for(&caller.tenant_id).await;
        let _ = self.vault.put(sk.storage_key(), run.to_bytes()).await;
        Reply::bytes(Status::ACCEPTED, run.to_bytes())
    }

    pub async fn nightly(&self) -> anyhow::Result<()> {
        let lease = self.leases.acquire("invoices-nightly", Duration::from_secs(3600)).await?;
        for tenant in self.tenants.active().await? {
            let actor = "billing-cron";
            let job_id = Ksuid::new(None, None).to_string();
            let sk = scoped(&tenant.tenant_id, actor, "invoices.generate", &job_id)?;
            if self.vault.exists(sk.storage_key()).await? {
                continue;
            }
            let run = self.generator.run_for(&tenant.tenant_id).await;
            self.vault.put(sk.storage_key(), run.to_bytes()).await?;
        }
        self.leases.release(lease).await?;
        Ok(())
    }
}

pub fn schedule(sched: &mut JobScheduler, app: Arc<Invoicing>, rt: Handle) {
    sched.add(Job::new("0 0 2 * * *".parse().expect("cron expression"), move || {
        let app = app.clone();
        rt.spawn(async move {
            if let Err(e) = app.nightly().await {
                tracing::error!(error = %e, "nightly invoicing failed");
            }
        });
    }));
}
