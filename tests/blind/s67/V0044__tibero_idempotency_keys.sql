-- Tibero 7: idempotency keys for the loyalty points API.

CREATE TABLE loyalty.idempotency_keys (
    tenant_id     VARCHAR2(64)   NOT NULL,
    principal_id  VARCHAR2(64)   NOT NULL,
    idem_key      VARCHAR2(255)  NOT NULL,
    fingerprint   RAW(32)        NOT NULL,
    status        VARCHAR2(16)   DEFAULT 'in_progress' NOT NULL,
    response      BLOB,
    created_at    DATE           DEFAULT SYSDATE NOT NULL,
    CONSTRAINT pk_loyalty_idem PRIMARY KEY (tenant_id, principal_id, idem_key)
)
TABLESPACE loyalty_data;

CREATE INDEX loyalty.ix_idem_key_lookup ON loyalty.idempotency_keys (idem_key);

CREATE TABLE loyalty.points_ledger (
    entry_id      NUMBER(19)     NOT NULL,
    tenant_id     VARCHAR2(64)   NOT NULL,
    member_id     VARCHAR2(64)   NOT NULL,
    idem_key      VARCHAR2(255)  NOT NULL,
    points        NUMBER(12)     NOT NULL,
    CONSTRAINT pk_points_ledger PRIMARY KEY (entry_id),
    CONSTRAINT uq_points_ledger_key UNIQUE (idem_key)
)
TABLESPACE loyalty_data;

CREATE TABLE loyalty.replay_log (
    tenant_id     VARCHAR2(64)   NOT NULL,
    principal_id  VARCHAR2(64)   NOT NULL,
    route         VARCHAR2(128)  NOT NULL,
    ns            CHAR(2)        DEFAULT 'u:' NOT NULL,
    idem_key      VARCHAR2(255)  NOT NULL,
    replayed_at   DATE           DEFAULT SYSDATE NOT NULL,
    CONSTRAINT pk_replay_log PRIMARY KEY (tenant_id, principal_id, route, ns, idem_key)
)
TABLESPACE loyalty_data;

COMMENT ON TABLE loyalty.idempotency_keys IS 'Claims and stored responses of the points API';
COMMENT ON TABLE loyalty.replay_log IS 'Audit of answered retries';
