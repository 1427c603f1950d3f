-- payouts service: replay cache for POST /v1/payouts and POST /v1/payouts/{id}/cancel

CREATE TABLE idempotency_keys (
    idempotency_key  TEXT        PRIMARY KEY,
    request_method   TEXT        NOT NULL,
    request_path     TEXT        NOT NULL,
    response_status  SMALLINT    NOT NULL,
    response_body    JSONB       NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at       TIMESTAMPTZ NOT NULL DEFAULT now() + INTERVAL '24 hours'
);

CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

CREATE TABLE payout_batches (
    id            BIGSERIAL   PRIMARY KEY,
    tenant_id     UUID        NOT NULL,
    submitted_by  UUID        NOT NULL,
    total_minor   BIGINT      NOT NULL CHECK (total_minor >= 0),
    currency      CHAR(3)     NOT NULL,
    status        TEXT        NOT NULL DEFAULT 'draft',
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE payouts (
    id               UUID        PRIMARY KEY,
    batch_id         BIGINT      NOT NULL REFERENCES payout_batches (id),
    tenant_id        UUID        NOT NULL,
    beneficiary_id   UUID        NOT NULL,
    amount_minor     BIGINT      NOT NULL,
    idempotency_key  TEXT        NOT NULL,
    UNIQUE (tenant_id, idempotency_key)
);
