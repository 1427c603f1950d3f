-- 0012: request deduplication for the partner API
CREATE TABLE request_dedup (
    tenant_id    UUID NOT NULL REFERENCES tenants (id),
    dedup_key    TEXT NOT NULL,
    fingerprint  BYTEA NOT NULL,
    response     JSONB,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT request_dedup_pkey PRIMARY KEY (tenant_id, dedup_key)
);

-- provider events we already processed; keyed by the provider's event id
CREATE TABLE processed_webhooks (
    event_id     TEXT PRIMARY KEY,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE webhook_dedup (
    id           BIGSERIAL PRIMARY KEY,
    dedup_key    TEXT NOT NULL UNIQUE,
    account_id   TEXT NOT NULL,
    seen_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE dedup_window (
    id            BIGSERIAL PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    operation     TEXT NOT NULL,
    dedup_key     TEXT NOT NULL,
    UNIQUE (tenant_id, principal_id, operation, dedup_key)
);
