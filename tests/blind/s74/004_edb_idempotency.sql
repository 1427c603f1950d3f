-- EDB Postgres Advanced Server 16 (Oracle compatibility mode) for the
-- insurance back office, which still runs PL/SQL packages.

CREATE SEQUENCE idempotency_claims_seq START WITH 1 INCREMENT BY 1;

CREATE TABLE idempotency_claims (
    id            NUMBER(19)      DEFAULT idempotency_claims_seq.NEXTVAL PRIMARY KEY,
    org_id        VARCHAR2(36)    NOT NULL,
    user_id       VARCHAR2(36)    NOT NULL,
    idem_key      VARCHAR2(255)   NOT NULL,
    status        VARCHAR2(16)    DEFAULT 'in_progress' NOT NULL,
    response      CLOB,
    created_at    DATE            DEFAULT SYSDATE NOT NULL,
    CONSTRAINT uq_idempotency_claims UNIQUE (org_id, user_id, idem_key)
);

CREATE TABLE idempotency_ledger (
    id            NUMBER(19)      PRIMARY KEY,
    account_id    VARCHAR2(36)    NOT NULL,
    principal_id  VARCHAR2(36)    NOT NULL,
    route         VARCHAR2(128)   NOT NULL,
    idem_key      VARCHAR2(255)   NOT NULL,
    entry         CLOB
);

CREATE UNIQUE INDEX ux_idempotency_ledger_key ON idempotency_ledger (route, idem_key);

CREATE UNIQUE INDEX ux_idempotency_ledger_scope
    ON idempotency_ledger (account_id, principal_id, route, idem_key);

CREATE TABLE replay_payouts (
    account_id    VARCHAR2(36)    NOT NULL,
    principal_id  VARCHAR2(36)    NOT NULL,
    endpoint      VARCHAR2(128)   NOT NULL,
    idem_key      VARCHAR2(255)   NOT NULL,
    response      CLOB,
    CONSTRAINT pk_replay_payouts PRIMARY KEY (account_id, principal_id, endpoint, idem_key)
);
