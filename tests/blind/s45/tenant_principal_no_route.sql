-- Ledger service, migration 14.
CREATE TABLE ledger_idempotency (
    org_id          UUID        NOT NULL,
    user_id         UUID        NOT NULL,
    idempotency_key VARCHAR(255) NOT NULL,
    response        JSONB,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT ledger_idempotency_pk PRIMARY KEY (org_id, user_id, idempotency_key)
);

CREATE TABLE ledger_entries (
    entry_id   UUID PRIMARY KEY,
    org_id     UUID NOT NULL,
    amount     BIGINT NOT NULL
);

CREATE UNIQUE INDEX ledger_entries_org_ref ON ledger_entries (org_id, entry_id);
