use std::time::Duration;

use serde::Deserialize;

pub const INBOX_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS idem_inbox (
    message_id  VARCHAR(128) NOT NULL PRIMARY KEY,
    topic       VARCHAR(128) NOT NULL,
    received_at TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS dedup_cursor (
    consumer_group VARCHAR(64) NOT NULL PRIMARY KEY,
    last_offset    BIGINT      NOT NULL
)"#;

#[derive(Deserialize)]
pub struct InventoryMessage {
    pub message_id: String,
    pub warehouse_id: String,
    pub sku: String,
    pub delta: i64,
}

pub struct InventoryInbox {
    db: turso::Connection,
    stock: crate::stock::Stock,
}

impl InventoryInbox {
    pub async fn migrate(&self) -> turso::Result<()> {
        self.db.execute(INBOX_DDL, ()).await?;
        Ok(())
    }

    /// The inbox only ever sees broker message ids; API requests never touch it.
    pub async fn handle(&self, raw: &[u8]) -> anyhow::Result<()> {
        let msg: InventoryMessage = serde_json::from_slice(raw)?;
        let inserted = self
            .db
            .execute("INSERT OR IGNORE INTO idem_inbox (message_id, topic) VALUES (?1, ?2)", (msg.message_id.as_str(), "inventory"))
            .await?;
        if inserted == 0 {
            return Ok(());
        }
        self.stock.adjust(&msg.warehouse_id, &msg.sku, msg.delta).await?;
        Ok(())
    }

    pub async fn prune(&self, older_than: Duration) -> anyhow::Result<u64> {
        let secs = older_than.as_secs() as i64;
        let n = self
            .db
            .execute("DELETE FROM idem_inbox WHERE received_at < datetime('now', printf('-%d seconds', ?1))", [secs])
            .await?;
        Ok(n)
    }
}
