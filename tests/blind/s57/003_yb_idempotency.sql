-- YugabyteDB 2.20 (YSQL)

CREATE TABLE idempotency_records (
    tenant_id    UUID        NOT NULL,
    user_id      UUID        NOT NULL,
    route        TEXT        NOT NULL,
    idem_key     TEXT        NOT NULL,
    status       TEXT        NOT NULL DEFAULT 'in_progress',
    response     JSONB,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY ((tenant_id) HASH, idem_key ASC)
) SPLIT INTO 16 TABLETS;

CREATE TABLE idempotency_records_v2 (
    scope_version TEXT        NOT NULL,
    tenant_id     UUID        NOT NULL,
    principal_id  UUID        NOT NULL,
    route         TEXT        NOT NULL,
    ns            TEXT        NOT NULL,
    idem_key      TEXT        NOT NULL,
    fingerprint   BYTEA       NOT NULL,
    status        TEXT        NOT NULL DEFAULT 'in_progress',
    response      JSONB,
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY ((scope_version, tenant_id) HASH, principal_id, route, ns, idem_key)
) SPLIT INTO 16 TABLETS;

CREATE TABLE webhook_dedup (
    id          BIGSERIAL,
    tenant_id   UUID        NOT NULL,
    user_id     UUID        NOT NULL,
    idem_key    TEXT        NOT NULL,
    seen_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (id HASH)
);

CREATE UNIQUE INDEX webhook_dedup_key_uq ON webhook_dedup (tenant_id, user_id, idem_key);

CREATE INDEX idempotency_records_v2_expiry ON idempotency_records_v2 (expires_at ASC);
CREATE INDEX webhook_dedup_seen ON webhook_dedup (seen_at ASC);
