-- idempotency store, v1 of the schema
CREATE TABLE idempotency_requests (
    merchant_id  TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'in_progress',
    response     BYTEA,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (merchant_id, idem_key)
);

CREATE TABLE webhook_dedup (
    id           BIGSERIAL PRIMARY KEY,
    delivery_key TEXT NOT NULL,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX webhook_dedup_key_idx ON webhook_dedup (delivery_key);

CREATE INDEX idempotency_requests_created_idx ON idempotency_requests (created_at);
