-- 0004: request ledger in the analytics warehouse.
-- Dialect: Actian Vector 6.3 (X100 engine): WITH PARTITION = (HASH ON ...),
-- MODIFY ... TO COMBINE, enforced PRIMARY KEY constraints.

CREATE TABLE idempotent_requests (
    tenant_id     VARCHAR(64)   NOT NULL,
    user_id       VARCHAR(64)   NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   CHAR(64)      NOT NULL,
    status        VARCHAR(12)   NOT NULL,
    received_at   TIMESTAMP(3)  NOT NULL,
    CONSTRAINT idempotent_requests_pk PRIMARY KEY (tenant_id, user_id, idem_key)
) WITH PARTITION = (HASH ON tenant_id 8 PARTITIONS);

CREATE TABLE idempotency_records_v2 (
    scope_version CHAR(2)       NOT NULL,
    tenant_id     VARCHAR(64)   NOT NULL,
    principal_id  VARCHAR(64)   NOT NULL,
    route         VARCHAR(128)  NOT NULL,
    ns            CHAR(2)       NOT NULL,
    idem_key      VARCHAR(255)  NOT NULL,
    fingerprint   CHAR(64)      NOT NULL,
    status        VARCHAR(12)   NOT NULL,
    received_at   TIMESTAMP(3)  NOT NULL,
    CONSTRAINT idempotency_records_v2_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
) WITH PARTITION = (HASH ON tenant_id 8 PARTITIONS);

CREATE TABLE underwriting_orders (
    order_no      VARCHAR(32)   NOT NULL,
    account_id    VARCHAR(64)   NOT NULL,
    spots         INTEGER       NOT NULL,
    booked_at     TIMESTAMP(3)  NOT NULL,
    CONSTRAINT underwriting_orders_pk PRIMARY KEY (order_no)
) WITH PARTITION = (HASH ON order_no 4 PARTITIONS);

MODIFY idempotent_requests TO COMBINE;
