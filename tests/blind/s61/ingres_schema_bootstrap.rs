use odbc::{create_environment_v3, Connection, Statement};

/// Ingres 11 schema for the legacy billing gateway (run once per environment).
const IDEMPOTENCY_LOG: &str = "
CREATE TABLE idempotency_log (
    account_id   VARCHAR(64)   NOT NULL,
    operation    VARCHAR(64)   NOT NULL,
    idem_key     VARCHAR(255)  NOT NULL,
    status       CHAR(1)       NOT NULL WITH DEFAULT 'P',
    response     LONG BYTE,
    created_at   INGRESDATE    NOT NULL WITH DEFAULT 'now',
    PRIMARY KEY (account_id, operation, idem_key)
) WITH STRUCTURE = BTREE, PAGE_SIZE = 8192";

const REQUEST_AUDIT: &str = "
CREATE TABLE request_audit (
    request_id   VARCHAR(64)   NOT NULL PRIMARY KEY,
    account_id   VARCHAR(64)   NOT NULL,
    path         VARCHAR(256)  NOT NULL,
    status_code  INTEGER       NOT NULL,
    seen_at      INGRESDATE    NOT NULL WITH DEFAULT 'now'
) WITH STRUCTURE = HASH";

const AUDIT_INDEX: &str = "CREATE INDEX request_audit_by_account ON request_audit (account_id, seen_at)";

pub fn bootstrap(dsn: &str) -> Result<(), String> {
    let env = create_environment_v3().map_err(|e| format!("odbc env: {:?}", e))?;
    let conn: Connection<'_, _> = env
        .connect_with_connection_string(dsn)
        .map_err(|e| format!("connect: {e}"))?;
    for ddl in [IDEMPOTENCY_LOG, REQUEST_AUDIT, AUDIT_INDEX] {
        let stmt = Statement::with_parent(&conn).map_err(|e| format!("stmt: {e}"))?;
        match stmt.exec_direct(ddl) {
            Ok(_) => tracing::info!(statement = ddl.lines().nth(1).unwrap_or(ddl), "applied"),
            Err(e) if e.to_string().contains("E_US07DA") => tracing::info!("already exists"),
            Err(e) => return Err(format!("ddl failed: {e}")),
        }
    }
    Ok(())
}
