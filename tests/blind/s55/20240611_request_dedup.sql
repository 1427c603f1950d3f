-- SQLite: local dedup state for the edge gateway.

CREATE TABLE IF NOT EXISTS request_dedup (
    org_id       TEXT NOT NULL,
    api_key_id   TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    status       TEXT NOT NULL,
    response     BLOB,
    created_at   INTEGER NOT NULL,
    CONSTRAINT request_dedup_pk PRIMARY KEY (org_id, api_key_id, idem_key)
);

-- v2 adds the endpoint so sibling routes never share a key
CREATE TABLE IF NOT EXISTS request_dedup_v2 (
    org_id       TEXT NOT NULL,
    api_key_id   TEXT NOT NULL,
    endpoint     TEXT NOT NULL,
    idem_key     TEXT NOT NULL,
    status       TEXT NOT NULL,
    response     BLOB,
    created_at   INTEGER NOT NULL
);

CREATE UNIQUE INDEX IF NOT EXISTS request_dedup_v2_uq ON request_dedup_v2 (org_id, api_key_id, endpoint, idem_key);

CREATE TABLE IF NOT EXISTS rate_buckets (
    bucket       TEXT PRIMARY KEY,
    tokens       REAL NOT NULL,
    refilled_at  INTEGER NOT NULL
);
