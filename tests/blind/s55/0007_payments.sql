-- 0007: payments, payment events and their idempotency tables

CREATE TABLE payments (
    id              UUID PRIMARY KEY,
    merchant_id     UUID NOT NULL,
    amount_minor    BIGINT NOT NULL,
    currency        CHAR(3) NOT NULL,
    status          TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE payment_events (
    event_id        TEXT NOT NULL,
    payment_id      UUID NOT NULL REFERENCES payments (id),
    kind            TEXT NOT NULL,
    received_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT payment_events_event_uq UNIQUE (event_id)
);

CREATE TABLE payment_idempotency (
    merchant_id       UUID NOT NULL,
    idempotency_key   TEXT NOT NULL,
    fingerprint       BYTEA NOT NULL,
    status            TEXT NOT NULL,
    response          JSONB,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (merchant_id, idempotency_key)
);

CREATE TABLE refund_replays (
    scope_version     TEXT NOT NULL DEFAULT 'v1',
    merchant_id       UUID NOT NULL,
    api_key_id        UUID NOT NULL,
    endpoint          TEXT NOT NULL,
    ns                CHAR(1) NOT NULL,
    idem_key          TEXT NOT NULL,
    fingerprint       BYTEA NOT NULL,
    status            TEXT NOT NULL,
    response          JSONB,
    PRIMARY KEY (scope_version, merchant_id, api_key_id, endpoint, ns, idem_key)
);

CREATE INDEX payment_events_payment_idx ON payment_events (payment_id);
