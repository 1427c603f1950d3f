use std::time::Duration;

use lapin::options::BasicPublishOptions;
use lapin::{BasicProperties, Channel};
use sqlx::{PgPool, Row};
use uuid::Uuid;

pub const OUTBOX_DDL: &str = "CREATE TABLE IF NOT EXISTS outbox (
    id            BIGSERIAL PRIMARY KEY,
    event_id      TEXT NOT NULL UNIQUE,
    routing_key   TEXT NOT NULL,
    payload       BYTEA NOT NULL,
    published_at  TIMESTAMPTZ
)";

pub struct OutboxRelay {
    pool: PgPool,
    channel: Channel,
}

impl OutboxRelay {
    pub async fn relay_batch(&self, limit: i64) -> anyhow::Result<usize> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "SELECT id, event_id, routing_key, payload FROM outbox WHERE published_at IS NULL \
             ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
        )
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;

        for row in &rows {
            let id: i64 = row.try_get("id")?;
            let event_id: String = row.try_get("event_id")?;
            let routing_key: String = row.try_get("routing_key")?;
            let payload: Vec<u8> = row.try_get("payload")?;
            let props = BasicProperties::default()
                .with_message_id(event_id.clone().into())
                .with_correlation_id(Uuid::new_v4().to_string().into());
            self.channel
                .basic_publish("events", &routing_key, BasicPublishOptions::default(), &payload, props)
                .await?
                .await?;
            sqlx::query("UPDATE outbox SET published_at = now() WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(rows.len())
    }

    pub async fn mark_consumed(&self, consumer: &str, event_id: &str) -> anyhow::Result<bool> {
        let inserted = sqlx::query("INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(consumer)
            .bind(event_id)
            .execute(&self.pool)
            .await?;
        Ok(inserted.rows_affected() == 1)
    }

    pub async fn run(&self) -> anyhow::Result<()> {
        loop {
            let n = self.relay_batch(200).await?;
            if n == 0 {
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}
