CREATE TABLE payments (
    id               UUID PRIMARY KEY,
    merchant_id      TEXT NOT NULL,
    idempotency_key  TEXT NOT NULL,
    amount_cents     BIGINT NOT NULL,
    UNIQUE (idempotency_key)
);

CREATE TABLE client_dedup_keys (
    tenant_id   TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    JSONB,
    PRIMARY KEY (tenant_id, route, idem_key)
);
