-- Oracle NoSQL Database 24.1: replay tables for the scale-house edge
-- service. Applied with the sql shell (`execute`), one statement per call.
-- Shard keys are declared with SHARD(...) inside the PRIMARY KEY clause.

CREATE TABLE IF NOT EXISTS replay_ledger (
    idem_key    STRING,
    org_id      STRING,
    user_id     STRING,
    route       STRING,
    fingerprint BINARY(32),
    status      ENUM(IN_PROGRESS, COMPLETED),
    response    BINARY,
    created_at  TIMESTAMP(3),
    PRIMARY KEY (SHARD(idem_key))
) USING TTL 2 DAYS;

CREATE TABLE IF NOT EXISTS dedup_scopes (
    org_id        STRING,
    user_id       STRING,
    route         STRING,
    ns            STRING,
    scope_version STRING,
    idem_key      STRING,
    fingerprint   BINARY(32),
    status        ENUM(IN_PROGRESS, COMPLETED),
    response      BINARY,
    PRIMARY KEY (SHARD(org_id), user_id, route, ns, scope_version, idem_key)
) USING TTL 1 DAYS;

CREATE INDEX IF NOT EXISTS idx_dedup_scopes_status ON dedup_scopes (status, idem_key);

CREATE TABLE IF NOT EXISTS scale_tickets (
    ticket_no   STRING,
    site        STRING,
    gross_lbs   INTEGER,
    tare_lbs    INTEGER,
    PRIMARY KEY (ticket_no)
);
