use std::time::Duration;

use graphile_worker::{IntoTaskHandlerResult, TaskHandler, WorkerContext, WorkerOptions};
use serde::{Deserialize, Serialize};

/// Relays rows from the `outbox` table to the partner bus. Rows are claimed
/// in batches so that two relays never publish the same row.
#[derive(Deserialize, Serialize)]
pub struct RelayOutbox {
    pub batch_size: u32,
}

pub struct OutboxRow {
    pub outbox_id: i64,
    pub event_id: String,
    pub tenant_id: String,
    pub topic: String,
    pub payload: Vec<u8>,
}

impl TaskHandler for RelayOutbox {
    const IDENTIFIER: &'static str = "relay_outbox";

    async fn run(self, ctx: WorkerContext) -> impl IntoTaskHandlerResult {
        let outbox: &crate::outbox::Outbox = ctx.extensions().get().expect("outbox registered");
        let bus: &crate::bus::Bus = ctx.extensions().get().expect("bus registered");

        let rows: Vec<OutboxRow> = outbox.claim_batch(self.batch_size, Duration::from_secs(30)).await?;
        for row in &rows {
            let subject = format!("tenants.{}.{}", row.tenant_id, row.topic);
            bus.publish(&subject, &row.event_id, &row.payload).await?;
        }
        outbox.finish(&rows.iter().map(|r| r.outbox_id).collect::<Vec<_>>()).await?;
        Ok::<(), anyhow::Error>(())
    }
}

pub async fn start(pool: crate::db::Pool, outbox: crate::outbox::Outbox, bus: crate::bus::Bus) -> anyhow::Result<()> {
    let worker = WorkerOptions::default()
        .concurrency(2)
        .schema("graphile_worker")
        .define_job::<RelayOutbox>()
        .add_extension(outbox)
        .add_extension(bus)
        .pg_pool(pool)
        .init()
        .await?;
    worker.run().await?;
    Ok(())
}
