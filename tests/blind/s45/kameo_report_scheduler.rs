use std::time::Duration;

use kameo::message::{Context, Message};
use kameo::Actor;
use uuid::Uuid;

#[derive(Actor)]
pub struct ReportScheduler {
    leases: LeaseTable,
    reports: ReportRepo,
    partner: PartnerClient,
    node_id: String,
}

pub struct RunReport {
    pub job_id: String,
    pub tenant_id: String,
}

pub struct ExportToPartner {
    pub tenant_id: String,
    pub batch: Vec<ReportRow>,
}

impl Message<RunReport> for ReportScheduler {
    type Reply = Result<(), SchedError>;

    async fn handle(&mut self, msg: RunReport, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        let lease = self.leases.acquire(&msg.job_id, &self.node_id, Duration::from_secs(60)).await?;
        let rows = self.reports.aggregate(&msg.tenant_id).await?;
        let run_id = Uuid::new_v4();
        self.reports.save_run(run_id, &msg.tenant_id, &rows).await?;
        self.leases.finish(&lease).await?;
        Ok(())
    }
}

impl Message<ExportToPartner> for ReportScheduler {
    type Reply = Result<(), SchedError>;

    async fn handle(&mut self, msg: ExportToPartner, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        // The partner API deduplicates on this header; we mint one per export.
        let idem_key = Uuid::new_v4().to_string();
        self.partner.post_batch(&msg.tenant_id, &msg.batch, &[("Idempotency-Key", idem_key.as_str())]).await?;
        Ok(())
    }
}
