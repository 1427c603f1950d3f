-- ScyllaDB keyspace for the transfers service.
CREATE TABLE IF NOT EXISTS transfers.idempotency_by_scope (
    scope_version text,
    tenant_id text,
    principal_id text,
    route text,
    ns text,
    idem_key text,
    fingerprint blob,
    response blob,
    PRIMARY KEY ((scope_version, tenant_id, principal_id), route, ns, idem_key)
) WITH default_time_to_live = 86400;

CREATE TABLE IF NOT EXISTS transfers.replay_tokens (
    idem_key text PRIMARY KEY,
    response blob
) WITH default_time_to_live = 3600;
