-- IBM Db2 11.5 (LUW). Billing schema, run with `db2 -tvf`.

CREATE TABLE billing.invoice_dedup (
    id            BIGINT        NOT NULL GENERATED ALWAYS AS IDENTITY (START WITH 1 INCREMENT BY 1),
    org_id        VARCHAR(64)   NOT NULL,
    dedup_key     VARCHAR(255)  NOT NULL,
    status        VARCHAR(16)   NOT NULL DEFAULT 'in_progress',
    response      CLOB(1M),
    created_at    TIMESTAMP     NOT NULL DEFAULT CURRENT TIMESTAMP,
    CONSTRAINT invoice_dedup_pk PRIMARY KEY (id)
) ORGANIZE BY ROW;

CREATE UNIQUE INDEX billing.invoice_dedup_key_ux ON billing.invoice_dedup (org_id, dedup_key) INCLUDE (status);

CREATE TABLE billing.idempotent_requests (
    org_id        VARCHAR(64)   NOT NULL,
    caller_id     VARCHAR(64)   NOT NULL,
    operation     VARCHAR(64)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   VARBINARY(32) NOT NULL,
    response      CLOB(1M),
    created_at    TIMESTAMP     NOT NULL DEFAULT CURRENT TIMESTAMP,
    CONSTRAINT idempotent_requests_pk PRIMARY KEY (org_id, caller_id, operation, idem_key)
) ORGANIZE BY ROW;

CREATE TABLE billing.replay_audit (
    audit_id      BIGINT        NOT NULL GENERATED ALWAYS AS IDENTITY,
    org_id        VARCHAR(64)   NOT NULL,
    caller_id     VARCHAR(64)   NOT NULL,
    operation     VARCHAR(64)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    replayed_at   TIMESTAMP     NOT NULL DEFAULT CURRENT TIMESTAMP,
    CONSTRAINT replay_audit_pk PRIMARY KEY (audit_id)
) ORGANIZE BY ROW;

COMMENT ON TABLE billing.idempotent_requests IS 'Stored responses of billing API calls, one row per caller request';
COMMENT ON TABLE billing.replay_audit IS 'Every replayed response, for support investigations';

GRANT SELECT, INSERT, UPDATE, DELETE ON billing.idempotent_requests TO ROLE billing_api;
GRANT SELECT, INSERT ON billing.replay_audit TO ROLE billing_api;
GRANT SELECT ON billing.replay_audit TO ROLE support_ro;
