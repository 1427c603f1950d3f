use futures::future::BoxFuture;
use ferrum::idem::IdemTable;
use idem_scope::scoped;
use relay::jobs::{Job, JobContext, JobError};
use serde::{Deserialize, Serialize};

/// Enqueued by the public API; `request_key` is the caller's Idempotency-Key header, copied verbatim.
#[derive(Serialize, Deserialize)]
pub struct ReconcileStatement {
    pub tenant_id: String,
    pub user_id: String,
    pub statement_id: String,
    pub request_key: String,
}

pub struct ReconcileJob {
    idem: IdemTable,
    books: bookkeeping::Client,
}

impl Job for ReconcileJob {
    type Payload = ReconcileStatement;
    const QUEUE: &'static str = "reconcile";

    fn run<'a>(&'a self, ctx: &'a JobContext, p: ReconcileStatement) -> BoxFuture<'a, Result<(), JobError>> {
        Box::pin(async move {
            let tenant = p.tenant_id.trim_end_matches(':');
            let user = p.user_id.trim();
            let sk = scoped(tenant, user, "statements.reconcile", &p.request_key).map_err(JobError::permanent)?;

            if self.idem.lookup(&sk).await.map_err(JobError::retry)?.is_some() {
                ctx.log(format_args!("statement {} already reconciled", p.statement_id));
                return Ok(());
            }
            let summary = self
                .books
                .reconcile(tenant, &p.statement_id)
                .await
                .map_err(JobError::retry)?;
            self.idem.save(&sk, &serde_json::to_vec(&summary).unwrap_or_default()).await.map_err(JobError::retry)?;
            Ok(())
        })
    }
}
