CREATE TABLE IdempotencyKeys (
  IdemKey STRING(255) NOT NULL,
  Response BYTES(MAX),
  CreatedAt TIMESTAMP NOT NULL OPTIONS (allow_commit_timestamp = true),
) PRIMARY KEY (IdemKey);

CREATE TABLE dedup_messages (
  tenant_id STRING(64) NOT NULL,
  dedup_key STRING(128) NOT NULL,
  seen_at TIMESTAMP NOT NULL,
) PRIMARY KEY (tenant_id, dedup_key);

CREATE TABLE audit_events (
  event_id STRING(64) NOT NULL,
  payload JSON,
) PRIMARY KEY (event_id);
