use ledgerkit::migrate::{Migration, Registry};

pub static MIGRATIONS: &[Migration] = &[
    Migration {
        version: 11,
        name: "idempotent_responses",
        up: "
            CREATE TABLE idempotent_responses (
                tenant_id    TEXT   NOT NULL,
                principal_id TEXT   NOT NULL,
                idem_key     TEXT   NOT NULL,
                fingerprint  BYTEA  NOT NULL,
                status_code  SMALLINT,
                body         BYTEA,
                created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
                CONSTRAINT idempotent_responses_pkey PRIMARY KEY (tenant_id, principal_id, idem_key)
            );
        ",
        down: "DROP TABLE idempotent_responses;",
    },
    Migration {
        version: 12,
        name: "idempotency_audit",
        up: "
            CREATE TABLE idempotency_audit (
                id           BIGSERIAL PRIMARY KEY,
                tenant_id    TEXT NOT NULL,
                event        TEXT NOT NULL,
                detail       JSONB NOT NULL,
                at           TIMESTAMPTZ NOT NULL DEFAULT now()
            );
            CREATE INDEX idempotency_audit_tenant_idx ON idempotency_audit (tenant_id, at);
        ",
        down: "DROP TABLE idempotency_audit;",
    },
    Migration {
        version: 13,
        name: "ledger_entries",
        up: "
            CREATE TABLE ledger_entries (
                entry_id     UUID PRIMARY KEY,
                tenant_id    TEXT NOT NULL,
                account_id   TEXT NOT NULL,
                amount_minor BIGINT NOT NULL,
                posted_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
                UNIQUE (tenant_id, entry_id)
            );
        ",
        down: "DROP TABLE ledger_entries;",
    },
];

pub fn registry() -> Registry {
    let mut r = Registry::new("ledger");
    for m in MIGRATIONS {
        r.add(m.version, m.name, m.up, m.down);
    }
    r
}
