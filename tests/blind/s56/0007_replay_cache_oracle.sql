-- 0007: response replay tables for the merchant gateway (Oracle 19c).

CREATE TABLE replay_cache (
    idem_key     VARCHAR2(255) PRIMARY KEY,
    tenant_id    VARCHAR2(64)  NOT NULL,
    status_code  NUMBER(3)     NOT NULL,
    body         BLOB,
    created_at   TIMESTAMP     DEFAULT SYSTIMESTAMP NOT NULL
);

CREATE TABLE replay_responses (
    id           NUMBER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    merchant_id  VARCHAR2(64)  NOT NULL,
    caller_id    VARCHAR2(64)  NOT NULL,
    client_key   VARCHAR2(255) NOT NULL,
    body         BLOB,
    created_at   TIMESTAMP     DEFAULT SYSTIMESTAMP NOT NULL
);

CREATE UNIQUE INDEX ux_replay_responses_scope ON replay_responses (merchant_id, caller_id, client_key);

CREATE TABLE idempotency_log (
    id           NUMBER GENERATED ALWAYS AS IDENTITY,
    merchant_id  VARCHAR2(64)  NOT NULL,
    caller_id    VARCHAR2(64)  NOT NULL,
    operation    VARCHAR2(64)  NOT NULL,
    client_key   VARCHAR2(255) NOT NULL,
    fingerprint  RAW(32)       NOT NULL,
    CONSTRAINT pk_idempotency_log PRIMARY KEY (id),
    CONSTRAINT uq_idempotency_log UNIQUE (merchant_id, caller_id, operation, client_key)
);
