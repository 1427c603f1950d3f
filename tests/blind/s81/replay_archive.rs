//! Nightly archive of completed replay records into the cold store, kept
//! for a year for chargeback disputes. Runs under a job lease.

use std::time::Duration;

use lagoon::lease::Leases;
use lagoon::sql::{query, Db, Row};

pub const ARCHIVE_DDL: &str = r#"
CREATE TABLE IF NOT EXISTS replay_archive (
    archived_on DATE  NOT NULL,
    tenant_id   TEXT  NOT NULL,
    principal_id TEXT NOT NULL,
    route       TEXT  NOT NULL,
    idem_key    TEXT  NOT NULL,
    response    BYTEA,
    UNIQUE (idem_key, archived_on)
)"#;

pub struct Archiver {
    hot: Db,
    cold: Db,
    leases: Leases,
}

impl Archiver {
    pub async fn run_nightly(&self, day: &str) -> Result<u64, lagoon::Error> {
        let lease = self.leases.acquire("replay-archive", Duration::from_secs(3600)).await?;
        let rows: Vec<Row> = query("SELECT tenant_id, principal_id, route, idem_key, response FROM guest_idempotency_records WHERE status = 'completed' AND expires_at < now()")
            .fetch_all(&self.hot)
            .await?;
        let mut moved = 0;
        for row in rows {
            query("INSERT INTO replay_archive (archived_on, tenant_id, principal_id, route, idem_key, response) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING")
                .bind(day)
                .bind(row.get::<String>("tenant_id"))
                .bind(row.get::<String>("principal_id"))
                .bind(row.get::<String>("route"))
                .bind(row.get::<String>("idem_key"))
                .bind(row.get::<Option<Vec<u8>>>("response"))
                .execute(&self.cold)
                .await?;
            moved += 1;
        }
        self.leases.release(lease).await?;
        Ok(moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE_DDL: &str = "CREATE TABLE replay_archive_fixture (idem_key TEXT PRIMARY KEY, response BYTEA)";

    #[tokio::test]
    async fn archives_completed_records() {
        let db = lagoon::sql::Db::memory().await;
        db.batch_execute(FIXTURE_DDL).await.unwrap();
        let lease = Leases::memory();
        let claim = lease.acquire("replay-archive", Duration::from_secs(1)).await.unwrap();
        db.execute(&format!("INSERT INTO replay_archive_fixture VALUES ('{}', NULL)", "k-1")).await.unwrap();
        lease.release(claim).await.unwrap();
    }
}
