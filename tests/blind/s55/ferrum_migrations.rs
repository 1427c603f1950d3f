use ferrum::migrate::{Migration, Registry};

pub fn register(reg: &mut Registry) {
    reg.add(Migration::new(
        1,
        "sessions",
        r#"
CREATE TABLE sessions (
    token       TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    tenant_id   TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);"#,
    ));

    reg.add(Migration::new(
        2,
        "dedup keys for the public api",
        r#"
CREATE TABLE dedup_keys (
    idem_key     TEXT PRIMARY KEY,
    tenant_id    TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    status_code  INT,
    response     BYTEA,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);"#,
    ));

    reg.add(Migration::new(
        3,
        "replay cache for partner callbacks",
        r#"
CREATE TABLE replay_cache (
    tenant_id  TEXT NOT NULL,
    route      TEXT NOT NULL,
    idem_key   TEXT NOT NULL,
    response   BYTEA,
    stored_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, route, idem_key)
);"#,
    ));

    reg.add(Migration::new(
        4,
        "scoped idempotency records",
        r#"
CREATE TABLE idempotency_records (
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response      BYTEA,
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
);
CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);"#,
    ));
}
