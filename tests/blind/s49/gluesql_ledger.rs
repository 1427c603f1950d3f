//! Embedded ledger for the point-of-sale edge node (gluesql).
use gluesql::prelude::{Glue, MemoryStorage};
use http::request::Parts;

const MIGRATIONS: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS entries (id TEXT PRIMARY KEY, account TEXT, amount_minor INTEGER)",
    "CREATE TABLE IF NOT EXISTS dedup_entries (
        dedup_key TEXT PRIMARY KEY,
        response BYTEA,
        created_at TIMESTAMP
    )",
];

pub async fn migrate(glue: &mut Glue<MemoryStorage>) -> gluesql::result::Result<()> {
    for m in MIGRATIONS {
        glue.execute(m).await?;
    }
    Ok(())
}

pub struct Ledger {
    glue: Glue<MemoryStorage>,
    idem: crate::idem::Records,
}

#[derive(serde::Serialize)]
pub struct Entry {
    pub id: String,
    pub amount_minor: i64,
}

impl Ledger {
    pub async fn post(&mut self, parts: &Parts, who: &crate::Who, entry: Entry) -> anyhow::Result<Vec<u8>> {
        let raw = parts.headers.get("idempotency-key").map(|v| v.as_bytes()).unwrap_or_default();
        let ik = idem_scope::IdempotencyKey::parse_lenient(raw)?;
        let key = idem_scope::scoped(&who.account_id, &who.caller_id, "ledger.post", ik.as_str())?;

        self.idem.begin(&key).await?;
        anyhow::ensure!(entry.amount_minor != 0, "zero-amount entries are rejected");
        self.glue.execute("BEGIN").await?;
        self.glue
            .execute(format!("INSERT INTO entries VALUES ('{}', {})", entry.id, entry.amount_minor))
            .await?;
        self.glue.execute("COMMIT").await?;
        let resp = serde_json::to_vec(&entry)?;
        self.idem.finish(&key, &resp).await?;
        Ok(resp)
    }

    pub async fn rebuild_balances(&mut self) -> anyhow::Result<()> {
        self.glue.execute("BEGIN").await?;
        self.glue.execute("DELETE FROM balances").await?;
        self.glue
            .execute("INSERT INTO balances SELECT account, SUM(amount_minor) FROM entries GROUP BY account")
            .await?;
        self.glue.execute("COMMIT").await?;
        Ok(())
    }
}
