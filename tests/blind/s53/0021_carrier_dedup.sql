-- Carrier integration service.

CREATE TABLE IF NOT EXISTS carrier_dedup_window (
    tenant_id    TEXT        NOT NULL,
    user_id      TEXT        NOT NULL,
    operation    TEXT        NOT NULL,
    idem_key     TEXT        NOT NULL,
    carrier_code TEXT        NOT NULL,
    response     JSONB,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (tenant_id, user_id, idem_key)
);

CREATE TABLE IF NOT EXISTS idempotency_audit (
    id          BIGSERIAL PRIMARY KEY,
    tenant_id   TEXT        NOT NULL,
    idem_key    TEXT        NOT NULL,
    outcome     TEXT        NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS idempotent_responses (
    client_id   TEXT  NOT NULL,
    idem_key    TEXT  NOT NULL,
    status      INT   NOT NULL,
    body        BYTEA NOT NULL,
    PRIMARY KEY (client_id, idem_key)
);

CREATE TABLE IF NOT EXISTS carrier_accounts (
    account_number TEXT PRIMARY KEY,
    tenant_id      TEXT NOT NULL,
    carrier_code   TEXT NOT NULL
);
