-- Informix 14.10: claim and nonce tables for the branch terminal gateway.

CREATE TABLE idempotency_claims (
    tenant_id     VARCHAR(64)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    status        CHAR(12)      NOT NULL,
    fingerprint   CHAR(64)      NOT NULL,
    response      BYTE,
    claimed_at    DATETIME YEAR TO FRACTION(3) DEFAULT CURRENT YEAR TO FRACTION(3) NOT NULL,
    PRIMARY KEY (tenant_id, idem_key) CONSTRAINT pk_idempotency_claims
) LOCK MODE ROW;

CREATE TABLE replay_nonces (
    nonce         CHAR(32)      NOT NULL UNIQUE CONSTRAINT uq_replay_nonce,
    terminal_id   VARCHAR(32)   NOT NULL,
    seen_at       DATETIME YEAR TO SECOND NOT NULL
) LOCK MODE ROW;

CREATE TABLE dedup_responses (
    scope_version  CHAR(2)       NOT NULL,
    tenant_id      VARCHAR(64)   NOT NULL,
    principal_id   VARCHAR(64)   NOT NULL,
    route          VARCHAR(128)  NOT NULL,
    ns             CHAR(2)       NOT NULL,
    idem_key       VARCHAR(255)  NOT NULL,
    response       BYTE,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key) CONSTRAINT pk_dedup_responses
) LOCK MODE ROW;

CREATE INDEX ix_idempotency_claims_at ON idempotency_claims (claimed_at);

CREATE TABLE terminal_sessions (
    terminal_id   VARCHAR(32)   NOT NULL,
    tenant_id     VARCHAR(64)   NOT NULL,
    opened_at     DATETIME YEAR TO SECOND NOT NULL,
    PRIMARY KEY (terminal_id) CONSTRAINT pk_terminal_sessions
) LOCK MODE ROW;

GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_claims TO gateway_rw;
GRANT SELECT, INSERT, DELETE ON replay_nonces TO gateway_rw;
GRANT SELECT, INSERT ON dedup_responses TO gateway_rw;
GRANT SELECT ON terminal_sessions TO reporting_ro;
