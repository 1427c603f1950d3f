use cistern::migrate::{Migration, Migrator};

/// Migrations for the versioned config store (Dolt, MySQL dialect): every
/// migration is committed to the Dolt branch after it runs.
pub fn migrations() -> Vec<Migration> {
    vec![
        Migration::new(
            "0007_dedup_config_writes",
            r#"
CREATE TABLE dedup_config_writes (
    tenant_id    VARCHAR(64)  NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    committed_as CHAR(32)     NULL,
    created_at   DATETIME     NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE KEY uq_dedup_config_writes (tenant_id, idem_key)
) ENGINE = InnoDB
"#,
        ),
        Migration::new(
            "0008_idempotent_publishes",
            r#"
CREATE TABLE idempotent_publishes (
    id           BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id    VARCHAR(64)  NOT NULL,
    principal_id VARCHAR(128) NOT NULL,
    route        VARCHAR(128) NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    dolt_commit  CHAR(32)     NULL,
    UNIQUE KEY uq_idempotent_publishes_scope (tenant_id, principal_id, route, idem_key)
) ENGINE = InnoDB
"#,
        ),
        Migration::new("0009_commit", "CALL DOLT_COMMIT('-Am', 'idempotency tables')"),
    ]
}

pub async fn run(migrator: &Migrator) -> Result<(), cistern::Error> {
    migrator.apply_all(migrations()).await
}

/// Rolls the working set back to a known Dolt commit after a failed deploy.
pub async fn reset_to(migrator: &Migrator, commit: &str) -> Result<(), cistern::Error> {
    if commit.len() != 32 || !commit.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(cistern::Error::invalid("not a dolt commit hash"));
    }
    migrator.conn().query("CALL DOLT_RESET('--hard', ?)").bind(commit).execute().await?;
    Ok(())
}
