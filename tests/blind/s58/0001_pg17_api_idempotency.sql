-- PostgreSQL 17. Replay storage for the public REST API.
-- Apply with the migration runner; statements are idempotent where possible.

CREATE TABLE IF NOT EXISTS api_idempotency (
    tenant_id      uuid         NOT NULL,
    idem_key       text         NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 255),
    status         text         NOT NULL DEFAULT 'in_progress',
    fingerprint    bytea        NOT NULL,
    response_code  smallint,
    response_body  jsonb,
    created_at     timestamptz  NOT NULL DEFAULT now(),
    expires_at     timestamptz  NOT NULL DEFAULT now() + interval '24 hours',
    PRIMARY KEY (tenant_id, idem_key)
);

CREATE INDEX IF NOT EXISTS api_idempotency_expiry ON api_idempotency (expires_at);

CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version  text         NOT NULL,
    tenant_id      uuid         NOT NULL,
    principal_id   text         NOT NULL,
    route          text         NOT NULL,
    ns             char(2)      NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key       text         NOT NULL,
    fingerprint    bytea        NOT NULL,
    status         text         NOT NULL,
    response       jsonb,
    created_at     timestamptz  NOT NULL DEFAULT now(),
    expires_at     timestamptz  NOT NULL,
    CONSTRAINT idempotency_records_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) PARTITION BY HASH (tenant_id);

CREATE TABLE IF NOT EXISTS idempotency_records_p0 PARTITION OF idempotency_records FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE IF NOT EXISTS idempotency_records_p1 PARTITION OF idempotency_records FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE IF NOT EXISTS idempotency_records_p2 PARTITION OF idempotency_records FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE IF NOT EXISTS idempotency_records_p3 PARTITION OF idempotency_records FOR VALUES WITH (MODULUS 4, REMAINDER 3);

CREATE TABLE IF NOT EXISTS webhook_attempts (
    id             bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    endpoint_url   text         NOT NULL,
    event_id       text         NOT NULL,
    attempt        integer      NOT NULL DEFAULT 1,
    http_status    smallint,
    sent_at        timestamptz  NOT NULL DEFAULT now(),
    UNIQUE NULLS NOT DISTINCT (event_id, attempt)
);
