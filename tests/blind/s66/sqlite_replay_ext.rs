//! SQLite loadable extension used by the offline till: `replay_slot()` gives
//! the storage key for a request, and `replay_init(name)` creates the tables.

use idem_scope::scoped;
use sqlite_loadable::prelude::*;
use sqlite_loadable::{api, define_scalar_function, exec, Error, FunctionFlags, Result};

fn replay_slot(context: *mut sqlite3_context, values: &[*mut sqlite3_value]) -> Result<()> {
    let tenant_id = api::value_text(values.first().ok_or_else(|| Error::new_message("tenant"))?)?;
    let principal_id = api::value_text(values.get(1).ok_or_else(|| Error::new_message("principal"))?)?;
    let route = api::value_text(values.get(2).ok_or_else(|| Error::new_message("route"))?)?;
    let key = api::value_text(values.get(3).ok_or_else(|| Error::new_message("key"))?)?;
    match scoped(tenant_id, principal_id, route, key) {
        Ok(slot) => api::result_text(context, slot.storage_key()),
        Err(e) => Err(Error::new_message(&e.to_string())),
    }
}

fn replay_init(context: *mut sqlite3_context, values: &[*mut sqlite3_value]) -> Result<()> {
    let name = api::value_text(values.first().ok_or_else(|| Error::new_message("name"))?)?;
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(Error::new_message("table prefix must be alphanumeric"));
    }
    let db = api::context_db_handle(context);
    let ddl = format!(
        "CREATE TABLE IF NOT EXISTS \"{name}_replay\" (
            tenant_id    TEXT NOT NULL,
            principal_id TEXT NOT NULL,
            route        TEXT NOT NULL,
            idem_key     TEXT NOT NULL,
            status       INTEGER NOT NULL,
            body         BLOB,
            created_at   INTEGER NOT NULL DEFAULT (unixepoch()),
            PRIMARY KEY (tenant_id, principal_id, route, idem_key)
        ) WITHOUT ROWID, STRICT;
        CREATE INDEX IF NOT EXISTS \"{name}_replay_key\" ON \"{name}_replay\" (idem_key);
        CREATE TABLE IF NOT EXISTS \"{name}_dedup_stats\" (
            route        TEXT PRIMARY KEY,
            hits         INTEGER NOT NULL DEFAULT 0,
            misses       INTEGER NOT NULL DEFAULT 0
        ) STRICT;"
    );
    exec::execute_batch(db, &ddl)?;
    api::result_bool(context, true);
    Ok(())
}

#[sqlite_entrypoint]
pub fn sqlite3_replayext_init(db: *mut sqlite3) -> Result<()> {
    let flags = FunctionFlags::UTF8 | FunctionFlags::DETERMINISTIC;
    define_scalar_function(db, "replay_slot", 4, replay_slot, flags)?;
    define_scalar_function(db, "replay_init", 1, replay_init, FunctionFlags::UTF8)?;
    Ok(())
}
