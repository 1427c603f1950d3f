-- 0002: inbound webhook bookkeeping and the legacy checkout idempotency table.

CREATE TABLE webhook_deliveries (
    delivery_id   TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL,
    event_type    TEXT NOT NULL,
    payload       JSONB NOT NULL,
    received_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE webhook_dedup (
    account_id    TEXT NOT NULL,
    delivery_id   TEXT NOT NULL,
    received_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT webhook_dedup_pk PRIMARY KEY (account_id, delivery_id)
);

CREATE TABLE payment_idempotency (
    id            BIGSERIAL PRIMARY KEY,
    merchant_id   TEXT NOT NULL,
    idem_key      TEXT NOT NULL UNIQUE,
    request_hash  TEXT NOT NULL,
    response      JSONB
);
