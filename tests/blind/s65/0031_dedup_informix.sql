-- Informix 14.10, database "payments" (logged, ANSI mode off)

CREATE TABLE dedup_keys (
    dedup_id     SERIAL8 NOT NULL,
    tenant_id    VARCHAR(64) NOT NULL,
    idem_key     LVARCHAR(255) NOT NULL,
    status       CHAR(12) NOT NULL,
    response     BLOB,
    created_at   DATETIME YEAR TO SECOND DEFAULT CURRENT YEAR TO SECOND NOT NULL,
    PRIMARY KEY (dedup_id) CONSTRAINT pk_dedup_keys,
    UNIQUE (tenant_id, idem_key) CONSTRAINT uq_dedup_keys
) IN dbs_pay EXTENT SIZE 512 NEXT SIZE 512 LOCK MODE ROW;

CREATE INDEX ix_dedup_keys_created ON dedup_keys (created_at, idem_key) USING BTREE;

CREATE TABLE idempotency_ledger (
    scope_version CHAR(4) NOT NULL,
    tenant_id     VARCHAR(64) NOT NULL,
    principal_id  VARCHAR(64) NOT NULL,
    route         VARCHAR(128) NOT NULL,
    ns            CHAR(2) NOT NULL,
    idem_key      LVARCHAR(255) NOT NULL,
    fingerprint   BYTE,
    status        CHAR(12) NOT NULL,
    expires_at    DATETIME YEAR TO SECOND NOT NULL,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key) CONSTRAINT pk_idempotency_ledger
) FRAGMENT BY ROUND ROBIN IN dbs_pay1, dbs_pay2 LOCK MODE ROW;

CREATE PROCEDURE purge_dedup_keys(cutoff DATETIME YEAR TO SECOND)
    DELETE FROM dedup_keys WHERE created_at < cutoff;
    DELETE FROM idempotency_ledger WHERE expires_at < cutoff;
END PROCEDURE;

CREATE VIEW v_dedup_recent (tenant_id, idem_key, status, created_at) AS
    SELECT tenant_id, idem_key, status, created_at
      FROM dedup_keys
     WHERE created_at > CURRENT YEAR TO SECOND - INTERVAL (2) DAY TO DAY;

GRANT SELECT ON v_dedup_recent TO reporting;
UPDATE STATISTICS MEDIUM FOR TABLE dedup_keys;
UPDATE STATISTICS MEDIUM FOR TABLE idempotency_ledger;
