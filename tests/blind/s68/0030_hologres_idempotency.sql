-- Alibaba Cloud Hologres (PostgreSQL-compatible) -- request replay storage for the public API
BEGIN;

CREATE TABLE public.idempotency_records (
    scope_version text NOT NULL DEFAULT 'v1',
    tenant_id     text NOT NULL,
    principal_id  text NOT NULL,
    route         text NOT NULL,
    ns            text NOT NULL,
    idem_key      text NOT NULL,
    fingerprint   bytea,
    status        text NOT NULL DEFAULT 'in_progress',
    response      jsonb,
    expires_at    timestamptz NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
CALL set_table_property('public.idempotency_records', 'orientation', 'row');
CALL set_table_property('public.idempotency_records', 'distribution_key', 'tenant_id');
CALL set_table_property('public.idempotency_records', 'time_to_live_in_seconds', '86400');

CREATE TABLE public.idempotent_exports (
    export_id     bigserial,
    tenant_id     text NOT NULL,
    principal_id  text NOT NULL,
    route         text NOT NULL,
    idem_key      text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (export_id),
    UNIQUE (route, idem_key)
);
CALL set_table_property('public.idempotent_exports', 'distribution_key', 'export_id');

CREATE TABLE public.api_tokens (
    token_hash    text PRIMARY KEY,
    tenant_id     text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE public.dedup_imports (
    tenant_id     text NOT NULL,
    principal_id  text NOT NULL,
    route         text NOT NULL,
    idem_key      text NOT NULL,
    rows_loaded   int,
    UNIQUE (tenant_id, principal_id, route, idem_key)
);

COMMIT;
