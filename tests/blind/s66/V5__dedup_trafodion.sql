-- Apache Trafodion 2.4 / EsgynDB on HBase, catalog TRAFODION, schema PAYMENTS.
-- Salted tables spread hot tenants over region servers.

SET SCHEMA TRAFODION.PAYMENTS;

CREATE TABLE webhook_dedup (
    tenant_id      VARCHAR(64 BYTES)   NOT NULL,
    principal_id   VARCHAR(64 BYTES)   NOT NULL,
    idem_key       VARCHAR(255 BYTES)  NOT NULL,
    status         VARCHAR(16 BYTES)   NOT NULL,
    response_body  VARCHAR(32000 BYTES),
    created_at     TIMESTAMP(6)        DEFAULT CURRENT_TIMESTAMP NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, idem_key)
)
SALT USING 8 PARTITIONS ON (tenant_id)
ATTRIBUTES ALIGNED FORMAT;

CREATE TABLE payment_idempotency (
    tenant_id      VARCHAR(64 BYTES)   NOT NULL,
    principal_id   VARCHAR(64 BYTES)   NOT NULL,
    operation      VARCHAR(64 BYTES)   NOT NULL,
    idem_key       VARCHAR(255 BYTES)  NOT NULL,
    fingerprint    VARCHAR(64 BYTES)   NOT NULL,
    response_body  VARCHAR(32000 BYTES),
    created_at     TIMESTAMP(6)        DEFAULT CURRENT_TIMESTAMP NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, operation, idem_key)
)
SALT USING 8 PARTITIONS ON (tenant_id);

CREATE TABLE payment_attempts (
    attempt_id     LARGEINT            NOT NULL,
    idem_key       VARCHAR(255 BYTES)  NOT NULL,
    amount_minor   LARGEINT            NOT NULL,
    PRIMARY KEY (attempt_id),
    UNIQUE (idem_key)
);
