use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

const UP: &str = "
CREATE TABLE dedup_requests (
    team_id     UUID        NOT NULL,
    idem_key    TEXT        NOT NULL,
    status      TEXT        NOT NULL,
    response    JSONB,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, idem_key)
);
CREATE TABLE carrier_rate_cards (
    card_id     UUID PRIMARY KEY,
    team_id     UUID NOT NULL,
    carrier     TEXT NOT NULL,
    valid_from  DATE NOT NULL
);
";

const DOWN: &str = "DROP TABLE IF EXISTS carrier_rate_cards; DROP TABLE IF EXISTS dedup_requests;";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(UP).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager.get_connection().execute_unprepared(DOWN).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    const FIXTURE_DDL: &str = "CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, body BYTEA)";

    #[tokio::test]
    async fn migration_applies_on_empty_schema() {
        let db = crate::test_support::ephemeral_postgres().await;
        db.execute_unprepared(FIXTURE_DDL).await.unwrap();
        let manager = sea_orm_migration::SchemaManager::new(&db);
        super::Migration.up(&manager).await.unwrap();
        assert!(manager.has_table("dedup_requests").await.unwrap());
    }
}
