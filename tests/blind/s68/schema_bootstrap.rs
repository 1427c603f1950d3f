use cobble::sql::Db;

/// GreptimeDB keeps the request log; the time index is mandatory there.
const GREPTIME_IDEMPOTENCY_LOG: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_log (
    tenant_id     STRING NOT NULL,
    principal_id  STRING NOT NULL,
    route         STRING NOT NULL,
    idem_key      STRING NOT NULL,
    status        STRING,
    ts            TIMESTAMP(3) NOT NULL,
    TIME INDEX (ts),
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) WITH (ttl = '7d', append_mode = 'false')
"#;

/// Progress OpenEdge side: the legacy order desk still writes here.
const OPENEDGE_REPLAY_LEDGER: &str = r#"
CREATE TABLE PUB.replay_ledger (
    idem_key      VARCHAR(255) NOT NULL,
    tenant_id     VARCHAR(32)  NOT NULL,
    order_num     INTEGER,
    created_at    TIMESTAMP    DEFAULT SYSTIMESTAMP,
    CONSTRAINT pk_replay_ledger PRIMARY KEY (idem_key)
) AREA "Data Area"
"#;

const OPENEDGE_CUSTOMERS: &str = r#"
CREATE TABLE PUB.customer_notes (
    note_id       INTEGER      NOT NULL,
    cust_num      INTEGER      NOT NULL,
    note_text     VARCHAR(2000),
    CONSTRAINT pk_customer_notes PRIMARY KEY (note_id)
) AREA "Data Area"
"#;

pub async fn bootstrap(greptime: &Db, openedge: &Db) -> Result<(), cobble::sql::Error> {
    greptime.execute(GREPTIME_IDEMPOTENCY_LOG).await?;
    openedge.execute(OPENEDGE_REPLAY_LEDGER).await?;
    openedge.execute(OPENEDGE_CUSTOMERS).await?;
    openedge
        .execute("GRANT SELECT, INSERT, UPDATE ON PUB.replay_ledger TO orderdesk")
        .await?;
    Ok(())
}

pub async fn verify(greptime: &Db) -> Result<bool, cobble::sql::Error> {
    let rows = greptime
        .query("SELECT count(*) FROM information_schema.tables WHERE table_name = 'idempotency_log'")
        .fetch_one::<i64>()
        .await?;
    Ok(rows == 1)
}
