use std::sync::Mutex;
use std::time::Duration;

use ferrum::pg::{Pool, PgError};
use serde::Deserialize;
use uuid::Uuid;

pub const MQ_SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS mq_msgs (
    id            UUID PRIMARY KEY,
    channel_name  TEXT NOT NULL,
    payload_json  JSONB,
    attempts      INT NOT NULL DEFAULT 5,
    locked_until  TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS mq_msgs_channel_idx ON mq_msgs (channel_name, created_at);
"#;

#[derive(Deserialize)]
struct ReindexJob {
    index: String,
    since: chrono::DateTime<chrono::Utc>,
}

#[derive(Default)]
pub struct RunnerStats {
    pub done: u64,
    pub failed: u64,
}

pub struct JobTable {
    pool: Pool,
}

impl JobTable {
    pub async fn next(&self, channel: &str) -> Result<Option<(Uuid, serde_json::Value)>, PgError> {
        self.pool
            .query_opt(
                "SELECT id, payload_json FROM mq_msgs WHERE channel_name = $1 AND attempts > 0 \
                 AND (locked_until IS NULL OR locked_until < now()) ORDER BY created_at LIMIT 1",
                &[&channel],
            )
            .await
            .map(|r| r.map(|r| (r.get(0), r.get(1))))
    }

    pub async fn acquire(&self, id: Uuid, lease: Duration) -> Result<bool, PgError> {
        let n = self
            .pool
            .execute(
                "UPDATE mq_msgs SET locked_until = now() + $2 * interval '1 second', attempts = attempts - 1 \
                 WHERE id = $1 AND (locked_until IS NULL OR locked_until < now())",
                &[&id, &(lease.as_secs() as i64)],
            )
            .await?;
        Ok(n == 1)
    }

    pub async fn complete(&self, id: Uuid) -> Result<(), PgError> {
        self.pool.execute("DELETE FROM mq_msgs WHERE id = $1", &[&id]).await.map(|_| ())
    }
}

pub struct ReindexRunner {
    jobs: JobTable,
    stats: Mutex<RunnerStats>,
    search: search_cluster::Client,
}

impl ReindexRunner {
    pub async fn run_once(&self) -> anyhow::Result<bool> {
        let Some((id, payload)) = self.jobs.next("reindex").await? else {
            return Ok(false);
        };
        if !self.jobs.acquire(id, Duration::from_secs(30)).await? {
            return Ok(true);
        }
        let job: ReindexJob = serde_json::from_value(payload)?;
        self.search.reindex(&job.index, job.since).await?;
        self.jobs.complete(id).await?;
        self.stats.lock().unwrap().done += 1;
        Ok(true)
    }
}
