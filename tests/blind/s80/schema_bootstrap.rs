//! Schema bootstrap run by `portctl migrate`: the operational PostgreSQL
//! schema (idem-scope's own table plus ours) and the ByteHouse tables the
//! replay dashboard reads.

use idem_scope::POSTGRES_SCHEMA;

pub const PG_DDL: &[&str] = &[
    POSTGRES_SCHEMA,
    r#"CREATE TABLE IF NOT EXISTS replay_requests (
    tenant_id    text        NOT NULL,
    principal_id text        NOT NULL,
    route        text        NOT NULL,
    idem_key     text        NOT NULL,
    requested_at timestamptz NOT NULL DEFAULT now(),
    requested_by text        NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
)"#,
    r#"CREATE TABLE IF NOT EXISTS vessel_calls (
    call_ref   text PRIMARY KEY,
    account_id text NOT NULL,
    voyage_ref text NOT NULL,
    eta        timestamptz NOT NULL,
    etd        timestamptz NOT NULL
)"#,
];

pub const BYTEHOUSE_DDL: &[&str] = &[
    r#"CREATE TABLE IF NOT EXISTS port_analytics.replay_responses
(
    tenant_id String,
    principal_id String,
    route String,
    idem_key String,
    status_code UInt16,
    created_at DateTime
)
ENGINE = CnchMergeTree()
PARTITION BY toDate(created_at)
ORDER BY (tenant_id, idem_key)
UNIQUE KEY (tenant_id, idem_key)
TTL created_at + INTERVAL 7 DAY"#,
    r#"CREATE TABLE IF NOT EXISTS port_analytics.gate_passes
(
    pass_id String,
    lane UInt8,
    plate String,
    ts DateTime64(3)
)
ENGINE = CnchMergeTree()
ORDER BY (lane, ts)
UNIQUE KEY (pass_id)"#,
];

pub async fn migrate(pg: &tokio_postgres::Client, bh: &bytehouse::Client) -> anyhow::Result<()> {
    for ddl in PG_DDL {
        pg.batch_execute(ddl).await?;
    }
    for ddl in BYTEHOUSE_DDL {
        bh.execute(ddl).await?;
    }
    Ok(())
}
