-- Tarantool 3.2 SQL (vinyl engine for the long-retention tables).
-- Idempotency tables for the depot-charging service.

CREATE TABLE IF NOT EXISTS "depot_idempotency" (
    "org_id"      STRING NOT NULL,
    "user_id"     STRING NOT NULL,
    "idem_key"    STRING NOT NULL,
    "status"      STRING NOT NULL,
    "response"    VARBINARY,
    "expires_at"  INTEGER NOT NULL,
    PRIMARY KEY ("org_id", "user_id", "idem_key")
) WITH ENGINE = 'vinyl';

CREATE TABLE IF NOT EXISTS "depot_idempotency_v2" (
    "scope_version" STRING NOT NULL,
    "org_id"        STRING NOT NULL,
    "user_id"       STRING NOT NULL,
    "route"         STRING NOT NULL,
    "ns"            STRING NOT NULL,
    "idem_key"      STRING NOT NULL,
    "fingerprint"   VARBINARY NOT NULL,
    "status"        STRING NOT NULL,
    "response"      VARBINARY,
    PRIMARY KEY ("scope_version", "org_id", "user_id", "route", "ns", "idem_key")
) WITH ENGINE = 'vinyl';

CREATE INDEX "depot_idem_v2_expiry" ON "depot_idempotency_v2" ("status");

CREATE TABLE IF NOT EXISTS "depot_schedules" (
    "depot_id"   STRING NOT NULL,
    "night"      INTEGER NOT NULL,
    "plan"       MAP,
    PRIMARY KEY ("depot_id", "night")
);
