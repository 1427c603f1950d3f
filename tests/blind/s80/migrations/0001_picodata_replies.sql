-- Picodata 25.1 (Tarantool-based distributed SQL)
-- Reply store for the agency and line APIs, berth planning tables.
-- Apply with: picodata admin ./admin.sock < 0001_picodata_replies.sql

CREATE TABLE idempotency_replies (
    scope_version TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route TEXT NOT NULL,
    ns TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    status TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    response TEXT,
    created_at DATETIME NOT NULL,
    expires_at DATETIME NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) USING memtx DISTRIBUTED BY (tenant_id) IN TIER hot OPTION (TIMEOUT = 3.0);

CREATE INDEX idempotency_replies_expiry ON idempotency_replies USING TREE (expires_at);

CREATE TABLE replay_markers (
    idem_key TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    replayed_by TEXT NOT NULL,
    replayed_at DATETIME NOT NULL,
    PRIMARY KEY (idem_key)
) USING vinyl DISTRIBUTED BY (idem_key) OPTION (TIMEOUT = 3.0);

CREATE TABLE berth_windows (
    window_id UNSIGNED NOT NULL,
    berth TEXT NOT NULL,
    call_ref TEXT NOT NULL,
    starts_at DATETIME NOT NULL,
    ends_at DATETIME NOT NULL,
    PRIMARY KEY (window_id)
) USING memtx DISTRIBUTED BY (window_id);

CREATE TABLE replay_audit (
    audit_id UNSIGNED NOT NULL,
    tenant_id TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    outcome TEXT NOT NULL,
    PRIMARY KEY (audit_id)
) USING vinyl DISTRIBUTED BY (audit_id);

CREATE UNIQUE INDEX replay_audit_scope ON replay_audit USING TREE (tenant_id, principal_id, route, idem_key);

CREATE TABLE terminal_regions (
    region TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (region)
) DISTRIBUTED GLOBALLY;
