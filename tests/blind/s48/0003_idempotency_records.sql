CREATE TABLE idempotency_records (
    id           BIGSERIAL PRIMARY KEY,
    idem_key     TEXT NOT NULL,
    tenant_id    TEXT NOT NULL,
    fingerprint  BYTEA NOT NULL,
    status       TEXT NOT NULL,
    response     BYTEA,
    expires_at   TIMESTAMPTZ NOT NULL
);

CREATE UNIQUE INDEX idempotency_records_key_uq ON idempotency_records (idem_key);

CREATE INDEX idempotency_records_expiry ON idempotency_records (expires_at);

CREATE TABLE idempotency_records_v2 (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL,
    response      BYTEA,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE UNIQUE INDEX idempotency_records_v2_lookup ON idempotency_records_v2 (tenant_id, principal_id, route, idem_key, ns, scope_version);
