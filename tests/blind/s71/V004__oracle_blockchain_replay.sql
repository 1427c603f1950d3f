-- Oracle Database 21c: settlement and refund replays are kept in
-- tamper-evident tables for the regional auditor.

CREATE BLOCKCHAIN TABLE settlement_replay_chain (
    tenant_id     VARCHAR2(64)  NOT NULL,
    actor         VARCHAR2(64)  NOT NULL,
    idem_key      VARCHAR2(255) NOT NULL,
    response      BLOB,
    created_at    TIMESTAMP WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
    CONSTRAINT settlement_replay_chain_uk UNIQUE (tenant_id, actor, idem_key)
)
NO DROP UNTIL 31 DAYS IDLE
NO DELETE UNTIL 16 DAYS AFTER INSERT
HASHING USING "SHA2_512" VERSION "v2";

CREATE IMMUTABLE TABLE refund_idempotency (
    tenant_id     VARCHAR2(64)  NOT NULL,
    user_id       VARCHAR2(64)  NOT NULL,
    operation     VARCHAR2(64)  NOT NULL,
    idem_key      VARCHAR2(255) NOT NULL,
    fingerprint   RAW(32)       NOT NULL,
    response      CLOB,
    CONSTRAINT refund_idempotency_pk PRIMARY KEY (tenant_id, user_id, operation, idem_key)
)
NO DROP UNTIL 31 DAYS IDLE
NO DELETE UNTIL 16 DAYS AFTER INSERT;

CREATE TABLE clearing_dedup (
    id            NUMBER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id     VARCHAR2(64)  NOT NULL,
    dedup_key     VARCHAR2(255) NOT NULL,
    batch_ref     VARCHAR2(64)  NOT NULL,
    received_at   TIMESTAMP DEFAULT SYSTIMESTAMP NOT NULL
)
PARTITION BY RANGE (received_at) INTERVAL (NUMTOYMINTERVAL(1, 'MONTH'))
(PARTITION p_start VALUES LESS THAN (TIMESTAMP '2025-01-01 00:00:00'));

CREATE UNIQUE INDEX clearing_dedup_key_ux ON clearing_dedup (tenant_id, dedup_key);
