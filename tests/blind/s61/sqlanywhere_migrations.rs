use larder::migrate::{Migration, Migrator};

/// SQL Anywhere 17 migrations for the in-store POS backend.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 12,
        name: "payment_dedup",
        sql: "
CREATE TABLE payment_dedup (
    client_key    VARCHAR(255)  NOT NULL UNIQUE,
    merchant_id   VARCHAR(64)   NOT NULL,
    terminal_id   VARCHAR(64)   NOT NULL,
    response      LONG BINARY   NULL,
    created_at    TIMESTAMP     NOT NULL DEFAULT CURRENT TIMESTAMP
);",
    },
    Migration {
        version: 13,
        name: "dedup_window",
        sql: "
CREATE TABLE dedup_window (
    tenant_id     VARCHAR(64)   NOT NULL,
    user_id       VARCHAR(64)   NOT NULL,
    endpoint      VARCHAR(128)  NOT NULL,
    client_key    VARCHAR(255)  NOT NULL,
    fingerprint   BINARY(32)    NOT NULL,
    response      LONG BINARY   NULL,
    expires_at    TIMESTAMP     NOT NULL,
    PRIMARY KEY (tenant_id, user_id, endpoint, client_key)
);",
    },
    Migration {
        version: 14,
        name: "payments",
        sql: "
CREATE TABLE payments (
    id               BIGINT        NOT NULL DEFAULT AUTOINCREMENT PRIMARY KEY,
    merchant_id      VARCHAR(64)   NOT NULL,
    idempotency_key  VARCHAR(255)  NULL UNIQUE,
    amount_minor     BIGINT        NOT NULL
);",
    },
];

pub fn run(migrator: &mut Migrator) -> Result<u32, larder::Error> {
    let mut applied = 0;
    for m in MIGRATIONS {
        if migrator.applied(m.version)? {
            continue;
        }
        migrator.apply(m)?;
        applied += 1;
    }
    Ok(applied)
}
