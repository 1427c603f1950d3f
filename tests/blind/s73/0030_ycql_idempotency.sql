-- YugabyteDB YCQL (Cassandra-compatible API) for the telematics gateway.
-- Partition key in double parentheses; transactions enabled for indexes.

CREATE KEYSPACE IF NOT EXISTS coop_replay;

CREATE TABLE IF NOT EXISTS coop_replay.idempotency_by_key (
    idem_key   text,
    org_id     text,
    user_id    text,
    route      text,
    response   blob,
    PRIMARY KEY ((idem_key))
) WITH default_time_to_live = 86400;

CREATE TABLE IF NOT EXISTS coop_replay.idempotency_scoped (
    org_id        text,
    user_id       text,
    route         text,
    ns            text,
    scope_version text,
    idem_key      text,
    status        text,
    fingerprint   blob,
    response      blob,
    PRIMARY KEY ((org_id, user_id), route, ns, scope_version, idem_key)
) WITH CLUSTERING ORDER BY (route ASC, ns ASC, scope_version ASC, idem_key ASC)
  AND default_time_to_live = 86400
  AND transactions = { 'enabled' : true };

CREATE INDEX IF NOT EXISTS idempotency_scoped_status ON coop_replay.idempotency_scoped (status);

CREATE UNIQUE INDEX IF NOT EXISTS idempotency_scoped_key ON coop_replay.idempotency_scoped (idem_key);
