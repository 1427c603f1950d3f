-- Databricks SQL (Unity Catalog, Delta Lake). Informational keys; enforced by the writer job.

CREATE SCHEMA IF NOT EXISTS payments_ops;

CREATE TABLE IF NOT EXISTS payments_ops.idempotency_keys (
  idem_key        STRING    NOT NULL,
  account_id      STRING    NOT NULL,
  route           STRING    NOT NULL,
  fingerprint     STRING    NOT NULL,
  response        BINARY,
  created_at      TIMESTAMP NOT NULL,
  CONSTRAINT idempotency_keys_pk PRIMARY KEY (account_id, route, idem_key)
)
USING DELTA
CLUSTER BY (account_id)
TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true');

CREATE TABLE IF NOT EXISTS payments_ops.idempotency_records_v2 (
  scope_version   STRING    NOT NULL,
  tenant_id       STRING    NOT NULL,
  principal_id    STRING    NOT NULL,
  route           STRING    NOT NULL,
  ns              STRING    NOT NULL,
  idem_key        STRING    NOT NULL,
  fingerprint     STRING    NOT NULL,
  status          STRING    NOT NULL,
  response        BINARY,
  created_at      TIMESTAMP NOT NULL,
  expires_at      TIMESTAMP NOT NULL,
  CONSTRAINT idempotency_records_v2_pk PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
USING DELTA
CLUSTER BY (tenant_id, principal_id);

CREATE TABLE IF NOT EXISTS payments_ops.settlement_files (
  file_sha256     STRING    NOT NULL,
  received_at     TIMESTAMP NOT NULL,
  bytes           BIGINT,
  CONSTRAINT settlement_files_pk PRIMARY KEY (file_sha256)
)
USING DELTA;

ALTER TABLE payments_ops.idempotency_records_v2
  SET TBLPROPERTIES ('delta.deletedFileRetentionDuration' = 'interval 7 days');
