-- dqlite (Raft-replicated SQLite) on the rental-shop edge nodes.

CREATE TABLE IF NOT EXISTS rental_replay (
    tenant_id   TEXT NOT NULL,
    clerk_id    TEXT NOT NULL,
    idem_key    TEXT NOT NULL UNIQUE,
    response    BLOB,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS swap_idempotency (
    tenant_id   TEXT NOT NULL,
    clerk_id    TEXT NOT NULL,
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    BLOB,
    PRIMARY KEY (tenant_id, clerk_id, route, idem_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rental_stock (
    sku         TEXT PRIMARY KEY,
    on_hand     INTEGER NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS swap_idempotency_key_idx ON swap_idempotency (idem_key);
