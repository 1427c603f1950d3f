//! Local database of the lobby kiosks (SQLite 3.46 through `satchel::lite`).
//! When the campus network is down, kiosks keep taps and replies locally and
//! sync them later.

use satchel::lite::Lite;

pub const KIOSK_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS kiosk_idempotency (
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    body          BLOB,
    saved_at      INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, principal_id, route, idem_key)
) STRICT;

CREATE TABLE IF NOT EXISTS dedup_offline_taps (
    idem_key      TEXT PRIMARY KEY,
    tenant_id     TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    tapped_at     INTEGER NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS ix_offline_taps_user ON dedup_offline_taps (tenant_id, user_id);

CREATE TABLE IF NOT EXISTS sync_cursor (
    stream        TEXT PRIMARY KEY,
    position      INTEGER NOT NULL
) STRICT;
";

pub fn open(path: &std::path::Path) -> anyhow::Result<Lite> {
    let db = Lite::open(path)?;
    db.pragma("journal_mode", "wal")?;
    db.pragma("foreign_keys", "on")?;
    db.execute_batch(KIOSK_SCHEMA)?;
    Ok(db)
}
