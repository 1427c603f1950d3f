use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::MultiplexedConnection;

use crate::jobs::{Job, JobQueue};
use crate::statements::StatementRenderer;

const LEADER_KEY: &str = "statements:leader";

pub struct StatementWorker {
    jobs: JobQueue,
    renderer: StatementRenderer,
    redis: MultiplexedConnection,
    rendered_count: Arc<Mutex<u64>>,
}

impl StatementWorker {
    async fn become_leader(&self, node: &str) -> redis::RedisResult<bool> {
        let mut con = self.redis.clone();
        let ok: Option<String> = redis::cmd("SET").arg(LEADER_KEY).arg(node).arg("NX").arg("EX").arg(30).query_async(&mut con).await?;
        Ok(ok.is_some())
    }

    pub async fn tick(&self, node: &str) -> anyhow::Result<()> {
        if !self.become_leader(node).await? {
            return Ok(());
        }
        let Some(job): Option<Job> = self.jobs.acquire(node, Duration::from_secs(300)).await? else {
            return Ok(());
        };
        let pdf = self.renderer.render(&job.account_id, job.period).await?;
        self.renderer.upload(&job.account_id, job.period, &pdf).await?;
        self.jobs.complete(&job.id).await?;
        let mut rendered = self.rendered_count.lock().unwrap();
        *rendered += 1;
        Ok(())
    }
}
