//! Ordered migrations for the questdb-adjacent Postgres metadata store, applied at boot.
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "dedup_events",
        sql: r#"
CREATE TABLE dedup_events (
    event_id    TEXT PRIMARY KEY,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
"#,
    },
    Migration {
        version: 2,
        name: "replay_log",
        sql: r#"
CREATE TABLE replay_log (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    response      BYTEA,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#,
    },
    Migration {
        version: 3,
        name: "payment_idempotency",
        sql: r#"
CREATE TABLE payment_idempotency (
    id          BIGSERIAL PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    JSONB
);
CREATE UNIQUE INDEX payment_idempotency_key_uq ON payment_idempotency (merchant_id, idem_key);
"#,
    },
];

pub fn pending(applied: u32) -> impl Iterator<Item = &'static Migration> {
    MIGRATIONS.iter().filter(move |m| m.version > applied)
}
