//! Local SQLite database on the scale-house kiosks (bushel's `lite`
//! wrapper over an embedded SQLite file). The kiosk keeps a replay cache so
//! a reboot in the middle of a check-in does not double-print tickets.

use bushel::lite::{LiteFile, Value};
use idem_scope::ScopedKey;

const SCHEMA: &str = r#"
PRAGMA journal_mode = WAL;

CREATE TABLE IF NOT EXISTS replay_cache (
    idem_key    TEXT PRIMARY KEY,
    org_id      TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    route       TEXT NOT NULL,
    response    BLOB NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS kiosk_sessions (
    token       TEXT PRIMARY KEY,
    badge       TEXT NOT NULL,
    expires_at  INTEGER NOT NULL
) STRICT;
"#;

pub fn open(path: &str) -> Result<LiteFile, bushel::Error> {
    let db = LiteFile::open(path)?;
    db.execute_batch(SCHEMA)?;
    Ok(db)
}

pub fn remember(db: &LiteFile, key: &ScopedKey, response: &[u8], now: i64) -> Result<(), bushel::Error> {
    let cols = key.columns();
    db.prep(
        "INSERT OR IGNORE INTO replay_cache (idem_key, org_id, user_id, route, response, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .bind(key.storage_key())
    .bind(cols.tenant_id)
    .bind(cols.principal_id)
    .bind(cols.route)
    .bind(response)
    .bind(now)
    .exec()?;
    Ok(())
}

pub fn recall(db: &LiteFile, key: &ScopedKey) -> Result<Option<Vec<u8>>, bushel::Error> {
    let row = db.prep("SELECT response FROM replay_cache WHERE idem_key = ?1").bind(key.storage_key()).first()?;
    Ok(row.and_then(|r| match r.get(0) {
        Some(Value::Blob(b)) => Some(b.clone()),
        _ => None,
    }))
}
