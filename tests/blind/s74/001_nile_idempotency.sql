-- Nile (tenant-aware PostgreSQL): every tenant-aware table carries tenant_id
-- and Nile places rows by it. Owner-app idempotency and replay tables.

CREATE TABLE IF NOT EXISTS idempotency_records (
    tenant_id     UUID        NOT NULL,
    scope_version TEXT        NOT NULL DEFAULT 'v1',
    client_id     TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL DEFAULT 'u:',
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response      JSONB,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tenant_id, scope_version, client_id, route, ns, idem_key)
);

CREATE INDEX IF NOT EXISTS idempotency_records_expiry
    ON idempotency_records (tenant_id, expires_at);

-- Older owner-app builds: responses cached per tenant only.
CREATE TABLE IF NOT EXISTS replay_responses (
    tenant_id   UUID        NOT NULL,
    idem_key    TEXT        NOT NULL,
    response    JSONB       NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, idem_key)
);

CREATE INDEX IF NOT EXISTS replay_responses_key
    ON replay_responses (idem_key);

-- Appointment reminders sent; unrelated to request replay.
CREATE TABLE IF NOT EXISTS reminder_sends (
    tenant_id   UUID        NOT NULL,
    reminder_id UUID        NOT NULL,
    sent_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, reminder_id)
);
