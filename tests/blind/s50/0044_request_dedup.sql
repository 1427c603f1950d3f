-- Per-principal request dedup (added after the cross-tenant incident).
CREATE TABLE request_dedup (
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL,
    response      JSONB,
    PRIMARY KEY (tenant_id, principal_id, idem_key)
);

CREATE TABLE api_idempotency (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BYTEA NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
    response      JSONB,
    CONSTRAINT api_idempotency_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);

CREATE TABLE payments (
    id          TEXT PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    amount      BIGINT NOT NULL
);
