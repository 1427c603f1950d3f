use std::sync::Arc;
use std::time::Duration;

use ferrum::kv::SharedKv;
use ferrum::lease::LeaseManager;
use relay::Publisher;
use tokio_rusqlite::{params, Connection};
use uuid::Uuid;

pub struct OutboxPublisher {
    conn: Connection,
    publisher: Publisher,
    published: SharedKv,
    leases: Arc<LeaseManager>,
}

struct Row {
    id: i64,
    topic: String,
    payload: Vec<u8>,
}

impl OutboxPublisher {
    pub async fn publish_partition(&self, partition: u32) -> anyhow::Result<usize> {
        let Some(lease) = self.leases.try_lock(&format!("outbox-partition-{partition}"), Duration::from_secs(15)).await? else {
            return Ok(0);
        };
        let rows: Vec<Row> = self
            .conn
            .call(move |c| {
                let mut st = c.prepare("SELECT id, topic, payload FROM outbox WHERE published_at IS NULL AND id % 8 = ?1 LIMIT 100")?;
                let rows = st.query_map(params![partition], |r| Ok(Row { id: r.get(0)?, topic: r.get(1)?, payload: r.get(2)? }))?;
                Ok(rows.collect::<Result<Vec<_>, _>>()?)
            })
            .await?;

        let mut n = 0;
        for row in rows {
            let dedup = format!("evt:{}", row.id);
            if self.published.contains_key(&dedup).await? {
                continue;
            }
            let message_id = Uuid::new_v4();
            self.publisher.send(&row.topic, message_id, &row.payload).await?;
            self.published.insert(&dedup, message_id.as_bytes()).await?;
            let id = row.id;
            self.conn
                .call(move |c| Ok(c.execute("UPDATE outbox SET published_at = unixepoch() WHERE id = ?1", params![id])?))
                .await?;
            n += 1;
        }
        lease.release().await?;
        Ok(n)
    }
}
