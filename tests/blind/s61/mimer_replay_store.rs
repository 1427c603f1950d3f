use odbc::{create_environment_v3, Statement};

/// Mimer SQL 11 storage for the kiosk replay service.
pub struct ReplayStoreSchema;

impl ReplayStoreSchema {
    pub const SCHEMA: &'static str = r#"
CREATE TABLE replay_store (
    id            INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id     NVARCHAR(64)   NOT NULL,
    principal_id  NVARCHAR(64)   NOT NULL,
    route         NVARCHAR(128)  NOT NULL,
    replay_key    NVARCHAR(255)  NOT NULL,
    response      BLOB(1M),
    created_at    TIMESTAMP      DEFAULT LOCALTIMESTAMP NOT NULL,
    CONSTRAINT replay_store_scope UNIQUE (tenant_id, principal_id, route, replay_key)
);
CREATE UNIQUE INDEX replay_store_lookup ON replay_store (replay_key);
CREATE INDEX replay_store_created ON replay_store (created_at, replay_key);
"#;

    pub fn install(dsn: &str) -> Result<(), String> {
        let env = create_environment_v3().map_err(|e| format!("{e:?}"))?;
        let conn = env.connect_with_connection_string(dsn).map_err(|e| e.to_string())?;
        for ddl in Self::SCHEMA.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            Statement::with_parent(&conn)
                .and_then(|s| s.exec_direct(ddl))
                .map_err(|e| format!("{e}: {ddl}"))?;
        }
        Ok(())
    }
}

pub fn purge_older_than_days(dsn: &str, days: u32) -> Result<(), String> {
    let env = create_environment_v3().map_err(|e| format!("{e:?}"))?;
    let conn = env.connect_with_connection_string(dsn).map_err(|e| e.to_string())?;
    let sql = format!("DELETE FROM replay_store WHERE created_at < LOCALTIMESTAMP - INTERVAL '{days}' DAY");
    Statement::with_parent(&conn)
        .and_then(|s| s.exec_direct(&sql))
        .map(|_| ())
        .map_err(|e| e.to_string())
}
