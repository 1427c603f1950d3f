pub const MIGRATION_0003: &str = "
CREATE TABLE idempotency_keys (
    idem_key    TEXT PRIMARY KEY,
    response    BYTEA,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
";

pub const MIGRATION_0004: &str = r#"
CREATE TABLE replay_log (
    tenant_id    TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route        TEXT NOT NULL,
    ns           TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    fingerprint  BYTEA NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub const MIGRATION_0005: &str = "CREATE TABLE dedup_events (tenant_id TEXT NOT NULL, event_key TEXT NOT NULL, seen_at TIMESTAMPTZ, UNIQUE (tenant_id, event_key));";

pub const USERS: &str = "CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL)";
