-- Oracle TimesTen 22.1: in-memory replay cache in front of the ledger.

CREATE TABLE ledger.replay_cache (
    idem_key      VARCHAR2(255 BYTE) NOT INLINE NOT NULL PRIMARY KEY,
    fingerprint   VARBINARY(32)      NOT NULL,
    status        VARCHAR2(16 BYTE)  INLINE DEFAULT 'in_progress' NOT NULL,
    response      VARBINARY(8000),
    created_at    TIMESTAMP          DEFAULT SYSDATE NOT NULL
);

CREATE TABLE ledger.idempotency_claims (
    tenant_id     VARCHAR2(64 BYTE)  INLINE NOT NULL,
    principal_id  VARCHAR2(64 BYTE)  INLINE NOT NULL,
    route         VARCHAR2(128 BYTE) INLINE NOT NULL,
    idem_key      VARCHAR2(255 BYTE) INLINE NOT NULL,
    fingerprint   VARBINARY(32)      NOT NULL,
    lease_until   TIMESTAMP          NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) UNIQUE HASH ON (tenant_id, principal_id, route, idem_key) PAGES = 2048;

CREATE TABLE ledger.replay_cache_v2 (
    id            TT_BIGINT          NOT NULL PRIMARY KEY,
    tenant_id     VARCHAR2(64 BYTE)  INLINE NOT NULL,
    idem_key      VARCHAR2(255 BYTE) INLINE NOT NULL,
    response      VARBINARY(8000)
);

CREATE UNIQUE INDEX ledger.replay_cache_v2_ux ON ledger.replay_cache_v2 (tenant_id, idem_key);

CREATE SEQUENCE ledger.replay_cache_v2_seq MINVALUE 1 INCREMENT BY 1 CACHE 100;

GRANT SELECT, INSERT, UPDATE, DELETE ON ledger.replay_cache TO ledger_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledger.idempotency_claims TO ledger_app;
GRANT SELECT, INSERT, UPDATE ON ledger.replay_cache_v2 TO ledger_app;

-- Keep optimizer statistics fresh for the hash lookups.
CALL ttOptUpdateStats('ledger.idempotency_claims', 1);
CALL ttOptUpdateStats('ledger.replay_cache_v2', 1);

-- Cache group refresh is handled by the ops runbook, not here.
