use sextant::migrate::Migrator;

pub const IDEMPOTENCY_RECORDS_PG: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version  text        NOT NULL,
    tenant_id      text        NOT NULL,
    principal_id   text        NOT NULL,
    route          text        NOT NULL,
    ns             text        NOT NULL,
    idem_key       text        NOT NULL,
    fingerprint    bytea       NOT NULL,
    status         text        NOT NULL,
    response       bytea,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz NOT NULL,
    CONSTRAINT idempotency_records_pkey PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
CREATE INDEX IF NOT EXISTS idempotency_records_expiry ON idempotency_records (expires_at);
CREATE INDEX IF NOT EXISTS idempotency_records_key_lookup ON idempotency_records (idem_key);
"#;

pub const DEDUP_TRANSFERS_PG: &str = r#"
CREATE TABLE IF NOT EXISTS dedup_transfers (
    id             bigserial   PRIMARY KEY,
    tenant_id      text        NOT NULL,
    principal_id   text        NOT NULL,
    route          text        NOT NULL,
    idem_key       text        NOT NULL,
    transfer_id    text,
    CONSTRAINT dedup_transfers_scope UNIQUE (tenant_id, principal_id, route, idem_key)
);
"#;

pub const AUDIT_EVENTS_PG: &str = r#"
CREATE TABLE IF NOT EXISTS audit_events (
    idem_key       text        PRIMARY KEY,
    actor          text        NOT NULL,
    happened_at    timestamptz NOT NULL DEFAULT now()
);
"#;

pub fn register(m: &mut Migrator) {
    m.add("0010_idempotency_records", IDEMPOTENCY_RECORDS_PG);
    m.add("0011_dedup_transfers", DEDUP_TRANSFERS_PG);
    m.add("0012_audit_events", AUDIT_EVENTS_PG);
}
