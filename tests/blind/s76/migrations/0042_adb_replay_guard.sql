-- AnalyticDB for MySQL 3.0 (Data Lakehouse Edition), reporting copy of the
-- portal's reply cache plus the guard tables used by the webhook ingesters.
-- AnalyticDB requires the distribution and partition keys in the primary key.

CREATE TABLE IF NOT EXISTS idempotency_keys (
  tenant_id      VARCHAR       NOT NULL COMMENT 'campus',
  principal_id   VARCHAR       NOT NULL COMMENT 'student or staff id',
  route          VARCHAR       NOT NULL,
  idem_key       VARCHAR       NOT NULL,
  fingerprint    VARCHAR,
  response_body  VARCHAR,
  created_at     DATETIME      NOT NULL,
  PRIMARY KEY (tenant_id, principal_id, route, idem_key, created_at)
)
DISTRIBUTED BY HASH(tenant_id)
PARTITION BY VALUE(DATE_FORMAT(created_at, '%Y%m%d')) LIFECYCLE 30
INDEX_ALL = 'Y'
COMMENT = 'portal reply cache (reporting copy)';

CREATE TABLE IF NOT EXISTS replay_guard (
  idem_key       VARCHAR       NOT NULL,
  tenant_id      VARCHAR       NOT NULL,
  created_at     DATETIME      NOT NULL,
  body           VARCHAR,
  PRIMARY KEY (idem_key, tenant_id, created_at)
)
DISTRIBUTED BY HASH(idem_key)
PARTITION BY VALUE(DATE_FORMAT(created_at, '%Y%m')) LIFECYCLE 12
COMMENT = 'guard for replayed ingester batches';

CREATE TABLE IF NOT EXISTS dedup_webhook_events (
  idem_key       VARCHAR       NOT NULL PRIMARY KEY,
  source         VARCHAR       NOT NULL,
  received_at    DATETIME      NOT NULL
)
DISTRIBUTED BY HASH(idem_key)
COMMENT = 'provider webhook dedup';

CREATE TABLE IF NOT EXISTS fee_ledger (
  entry_id       BIGINT        NOT NULL AUTO_INCREMENT,
  tenant_id      VARCHAR       NOT NULL,
  amount_cents   BIGINT        NOT NULL,
  posted_at      DATETIME      NOT NULL,
  PRIMARY KEY (entry_id, tenant_id)
)
DISTRIBUTED BY HASH(tenant_id)
COMMENT = 'fee postings';
