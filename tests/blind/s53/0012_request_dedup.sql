-- Merchant-facing payment API: remember responses per Idempotency-Key.

CREATE TABLE request_dedup (
    merchant_id   BIGINT       NOT NULL,
    idem_key      VARCHAR(255) NOT NULL,
    fingerprint   BYTEA        NOT NULL,
    status        VARCHAR(16)  NOT NULL DEFAULT 'in_progress',
    response      BYTEA,
    expires_at    TIMESTAMPTZ  NOT NULL,
    CONSTRAINT request_dedup_pk PRIMARY KEY (merchant_id, idem_key)
);

CREATE INDEX request_dedup_expiry_idx ON request_dedup (expires_at);

-- v2 keyspace used by the idem-scope layer; both run side by side until the
-- v1 handlers are retired.
CREATE TABLE replay_cache (
    scope_version TEXT        NOT NULL,
    account_id    TEXT        NOT NULL,
    user_id       TEXT        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL,
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, account_id, user_id, route, ns, idem_key)
);
