-- Cloud Spanner (GoogleSQL dialect). Apply with `gcloud spanner databases ddl update`.

CREATE TABLE replay_responses (
  tenant_id     STRING(64)   NOT NULL,
  idem_key      STRING(255)  NOT NULL,
  status_code   INT64        NOT NULL,
  body          BYTES(MAX),
  created_at    TIMESTAMP    NOT NULL OPTIONS (allow_commit_timestamp = true),
) PRIMARY KEY (tenant_id, idem_key),
  ROW DELETION POLICY (OLDER_THAN(created_at, INTERVAL 2 DAY));

CREATE TABLE idempotency_claims (
  scope_version STRING(8)    NOT NULL,
  tenant_id     STRING(64)   NOT NULL,
  principal_id  STRING(64)   NOT NULL,
  route         STRING(128)  NOT NULL,
  ns            STRING(2)    NOT NULL,
  idem_key      STRING(255)  NOT NULL,
  fingerprint   BYTES(32)    NOT NULL,
  state         STRING(16)   NOT NULL,
  lease_until   TIMESTAMP,
  created_at    TIMESTAMP    NOT NULL OPTIONS (allow_commit_timestamp = true),
) PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key);

CREATE TABLE idempotency_claim_events (
  scope_version STRING(8)    NOT NULL,
  tenant_id     STRING(64)   NOT NULL,
  principal_id  STRING(64)   NOT NULL,
  route         STRING(128)  NOT NULL,
  ns            STRING(2)    NOT NULL,
  idem_key      STRING(255)  NOT NULL,
  seq           INT64        NOT NULL,
  note          STRING(MAX),
) PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key, seq),
  INTERLEAVE IN PARENT idempotency_claims ON DELETE CASCADE;

CREATE INDEX idempotency_claims_by_lease ON idempotency_claims (state, lease_until) STORING (fingerprint);

CREATE CHANGE STREAM idempotency_changes FOR idempotency_claims (state);

ALTER TABLE replay_responses ADD COLUMN content_type STRING(64);
ALTER TABLE idempotency_claims ADD COLUMN attempts INT64 NOT NULL DEFAULT (0);
