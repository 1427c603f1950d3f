-- 0001: edge node schema (SQLite / rqlite)
CREATE TABLE IF NOT EXISTS idempotent_requests (
    workspace_id  TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    endpoint      TEXT NOT NULL,
    key           TEXT NOT NULL,
    response      BLOB,
    created_at    INTEGER NOT NULL
);

-- legacy index from the first release, still enforced
CREATE UNIQUE INDEX IF NOT EXISTS idx_idempotent_requests_key
    ON idempotent_requests (key);

CREATE UNIQUE INDEX IF NOT EXISTS idx_idempotent_requests_scope
    ON idempotent_requests (workspace_id, user_id, endpoint, key);

CREATE TABLE IF NOT EXISTS devices (
    device_id   TEXT PRIMARY KEY,
    last_seen   INTEGER NOT NULL
);
