-- DuckDB 1.1: local replay cache for the edge agent.

CREATE SEQUENCE IF NOT EXISTS replay_audit_seq START 1;

CREATE TABLE IF NOT EXISTS replay_cache (
    tenant_id     VARCHAR   NOT NULL,
    principal_id  VARCHAR   NOT NULL,
    route         VARCHAR   NOT NULL,
    idem_key      VARCHAR   NOT NULL,
    fingerprint   BLOB      NOT NULL,
    status        USMALLINT NOT NULL,
    body          BLOB,
    stored_at     TIMESTAMP NOT NULL DEFAULT current_timestamp,
    UNIQUE (tenant_id, principal_id, idem_key)
);

CREATE INDEX IF NOT EXISTS replay_cache_key_idx ON replay_cache (idem_key);

CREATE TABLE IF NOT EXISTS dedup_window (
    workspace_id  VARCHAR   NOT NULL,
    api_key_id    VARCHAR   NOT NULL,
    endpoint      VARCHAR   NOT NULL,
    dedup_key     VARCHAR   NOT NULL,
    seen_at       TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (workspace_id, api_key_id, endpoint, dedup_key)
);

CREATE TABLE IF NOT EXISTS replay_audit (
    id            BIGINT    PRIMARY KEY DEFAULT nextval('replay_audit_seq'),
    tenant_id     VARCHAR   NOT NULL,
    idem_key      VARCHAR   NOT NULL,
    decision      VARCHAR   NOT NULL,
    at            TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE OR REPLACE VIEW replay_cache_stats AS
SELECT tenant_id,
       route,
       count(*)                     AS stored,
       max(stored_at)               AS last_stored,
       sum(octet_length(body))      AS body_bytes
FROM replay_cache
GROUP BY tenant_id, route;
