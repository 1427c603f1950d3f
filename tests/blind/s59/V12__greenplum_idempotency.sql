-- Greenplum 7: request ledger for the payments API.
-- Tables are distributed by tenant so a tenant's rows stay on one segment.

CREATE TABLE api_idempotency_keys (
    tenant_id        text        NOT NULL,
    idempotency_key  text        NOT NULL,
    request_path     text        NOT NULL,
    fingerprint      bytea       NOT NULL,
    status           text        NOT NULL DEFAULT 'in_progress',
    response_code    integer,
    response_body    bytea,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, idempotency_key)
)
DISTRIBUTED BY (tenant_id);

CREATE INDEX api_idempotency_keys_lookup ON api_idempotency_keys (idempotency_key);

CREATE TABLE payment_requests (
    id               bigint      NOT NULL PRIMARY KEY,
    tenant_id        text        NOT NULL,
    amount_minor     bigint      NOT NULL,
    currency         char(3)     NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
)
DISTRIBUTED BY (id);

CREATE TABLE idempotency_responses (
    scope_version    text        NOT NULL,
    tenant_id        text        NOT NULL,
    principal_id     text        NOT NULL,
    route            text        NOT NULL,
    ns               text        NOT NULL,
    idem_key         text        NOT NULL,
    fingerprint      bytea       NOT NULL,
    status           text        NOT NULL,
    response         bytea,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
DISTRIBUTED BY (tenant_id);

CREATE INDEX idempotency_responses_expiry ON idempotency_responses (expires_at);
CREATE INDEX payment_requests_tenant ON payment_requests (tenant_id, created_at);

COMMENT ON TABLE idempotency_responses IS 'scoped response records; api_idempotency_keys is read-only after cutover';
