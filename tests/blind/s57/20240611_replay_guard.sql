-- SQLite 3.45 (embedded agent database)
PRAGMA foreign_keys = ON;

CREATE TABLE IF NOT EXISTS replay_guard (
    id           INTEGER PRIMARY KEY,
    tenant_id    TEXT    NOT NULL,
    principal_id TEXT    NOT NULL,
    route        TEXT    NOT NULL,
    idem_key     TEXT    NOT NULL,
    response     BLOB,
    created_at   INTEGER NOT NULL DEFAULT (unixepoch()),
    UNIQUE (route, idem_key)
) STRICT;

CREATE TABLE IF NOT EXISTS replay_guard_v2 (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL CHECK (ns IN ('u:', 's:')),
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    response      BLOB,
    created_at    INTEGER NOT NULL DEFAULT (unixepoch())
) STRICT;

CREATE UNIQUE INDEX IF NOT EXISTS replay_guard_v2_scope
    ON replay_guard_v2 (scope_version, tenant_id, principal_id, route, ns, idem_key);

CREATE INDEX IF NOT EXISTS replay_guard_created ON replay_guard (created_at);

CREATE TABLE IF NOT EXISTS agent_settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

INSERT OR IGNORE INTO agent_settings (name, value) VALUES ('replay_ttl_secs', '86400');
INSERT OR IGNORE INTO agent_settings (name, value) VALUES ('replay_max_rows', '50000');

CREATE TRIGGER IF NOT EXISTS replay_guard_v2_cap
AFTER INSERT ON replay_guard_v2
BEGIN
    DELETE FROM replay_guard_v2
     WHERE created_at < unixepoch() - CAST((SELECT value FROM agent_settings WHERE name = 'replay_ttl_secs') AS INTEGER);
END;
