CREATE TABLE IF NOT EXISTS dedupe_entries (
    client_key TEXT NOT NULL PRIMARY KEY,
    payload_sha TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS dedupe_scoped (
    org_id TEXT NOT NULL,
    actor TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    client_key TEXT NOT NULL,
    payload_sha TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS dedupe_scoped_uq ON dedupe_scoped (org_id, actor, endpoint, client_key);
