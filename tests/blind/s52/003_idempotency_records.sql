-- billing: scoped idempotency records (idem-scope layout) and the legacy table kept for the migration window

CREATE TABLE idempotency_records (
    scope_version  TEXT        NOT NULL,
    tenant_id      TEXT        NOT NULL,
    principal_id   TEXT        NOT NULL,
    route          TEXT        NOT NULL,
    ns             TEXT        NOT NULL,
    idem_key       TEXT        NOT NULL,
    fingerprint    BYTEA       NOT NULL,
    status         TEXT        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response       JSONB,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE INDEX idempotency_records_expires_idx ON idempotency_records (expires_at);

CREATE TABLE idempotency_responses_legacy (
    account_id       TEXT        NOT NULL,
    user_id          TEXT        NOT NULL,
    idempotency_key  TEXT        NOT NULL,
    response         JSONB       NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT idempotency_responses_legacy_uq UNIQUE (account_id, user_id, idempotency_key)
);

CREATE TABLE invoice_replay_audit (
    id          BIGSERIAL   PRIMARY KEY,
    tenant_id   TEXT        NOT NULL,
    invoice_id  TEXT        NOT NULL,
    replayed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
