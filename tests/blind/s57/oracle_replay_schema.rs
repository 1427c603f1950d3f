use sibyl::{Session, Error as OraError};

/// Oracle 23ai DDL for the replay service. Executed by the deploy job, not at
/// request time.
pub const REPLAY_STORE_DDL: &str = r#"
CREATE TABLE replay_store (
    idem_key      VARCHAR2(255 CHAR)  NOT NULL,
    tenant_id     VARCHAR2(64 CHAR)   NOT NULL,
    principal_id  VARCHAR2(64 CHAR)   NOT NULL,
    route         VARCHAR2(128 CHAR)  NOT NULL,
    response      BLOB,
    created_at    TIMESTAMP WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
    CONSTRAINT replay_store_pk PRIMARY KEY (idem_key)
)"#;

pub const IDEMPOTENCY_V2_DDL: &str = r#"
CREATE TABLE idempotency_v2 (
    scope_version VARCHAR2(8 CHAR)    NOT NULL,
    tenant_id     VARCHAR2(64 CHAR)   NOT NULL,
    principal_id  VARCHAR2(64 CHAR)   NOT NULL,
    route         VARCHAR2(128 CHAR)  NOT NULL,
    ns            VARCHAR2(2 CHAR)    NOT NULL,
    idem_key      VARCHAR2(255 CHAR)  NOT NULL,
    fingerprint   RAW(32)             NOT NULL,
    status        VARCHAR2(16 CHAR)   NOT NULL,
    response      BLOB
)"#;

pub const IDEMPOTENCY_V2_INDEX: &str =
    "CREATE UNIQUE INDEX idempotency_v2_scope_ux ON idempotency_v2 (scope_version, tenant_id, principal_id, route, ns, idem_key)";

pub async fn apply(session: &Session<'_>) -> Result<(), OraError> {
    for ddl in [REPLAY_STORE_DDL, IDEMPOTENCY_V2_DDL, IDEMPOTENCY_V2_INDEX] {
        let stmt = session.prepare(ddl).await?;
        match stmt.execute(()).await {
            Ok(_) => {}
            Err(e) if e.to_string().contains("ORA-00955") => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
