use tessera::sql::Conn;

/// Exasol 8 warehouse schema for the partner reconciliation service.
pub const DDL: &[&str] = &[
    r#"CREATE SCHEMA IF NOT EXISTS recon"#,
    r#"CREATE TABLE IF NOT EXISTS recon.idempotency_keys (
        org_id       VARCHAR(64) UTF8 NOT NULL,
        idem_key     VARCHAR(255) UTF8 NOT NULL,
        response     VARCHAR(2000000) UTF8,
        created_at   TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
        CONSTRAINT pk_idempotency_keys PRIMARY KEY (org_id, idem_key) ENABLE,
        DISTRIBUTE BY org_id
    )"#,
    r#"CREATE TABLE IF NOT EXISTS recon.dedup_archive (
        org_id       VARCHAR(64) UTF8 NOT NULL,
        user_id      VARCHAR(64) UTF8 NOT NULL,
        route        VARCHAR(128) UTF8 NOT NULL,
        ns           CHAR(2) UTF8 NOT NULL,
        idem_key     VARCHAR(255) UTF8 NOT NULL,
        archived_at  TIMESTAMP,
        CONSTRAINT pk_dedup_archive PRIMARY KEY (org_id, user_id, route, ns, idem_key) DISABLE,
        DISTRIBUTE BY org_id
    )"#,
    r#"CREATE TABLE IF NOT EXISTS recon.statement_lines (
        statement_id VARCHAR(64) UTF8 NOT NULL,
        line_no      DECIMAL(9,0) NOT NULL,
        idem_key     VARCHAR(255) UTF8,
        amount       DECIMAL(18,2),
        CONSTRAINT pk_statement_lines PRIMARY KEY (statement_id, line_no) ENABLE
    )"#,
];

pub async fn migrate(conn: &Conn) -> Result<(), tessera::sql::Error> {
    for stmt in DDL {
        conn.execute_batch(stmt).await?;
    }
    conn.execute_batch("ALTER SESSION SET TIME_ZONE = 'UTC'").await?;
    Ok(())
}

