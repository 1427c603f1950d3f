use butane::db::{BackendConnection, Connection, ConnectionSpec};
use butane::query::BoolExpr;
use butane::{model, DataObject};

/// Offline kiosks keep a local replay cache so a flaky uplink does not print
/// two receipts for one purchase.
pub const REPLAY_CACHE_DDL: &str = "CREATE TABLE IF NOT EXISTS replay_cache (
    principal_id TEXT NOT NULL,
    replay_key   TEXT NOT NULL,
    receipt      BLOB NOT NULL,
    printed_at   INTEGER NOT NULL,
    PRIMARY KEY (principal_id, replay_key)
)";

pub const PRINT_LOG_DDL: &str = "CREATE TABLE IF NOT EXISTS print_log (
    receipt_no TEXT PRIMARY KEY,
    printed_at INTEGER NOT NULL
)";

#[model]
#[derive(Debug, Clone)]
pub struct PrintLog {
    #[pk]
    pub receipt_no: String,
    pub printed_at: i64,
}

pub fn open(path: &str) -> Result<Connection, butane::Error> {
    let conn = butane::db::connect(&ConnectionSpec::new("sqlite", path))?;
    conn.execute(REPLAY_CACHE_DDL)?;
    conn.execute(PRINT_LOG_DDL)?;
    Ok(conn)
}

pub fn record_print(conn: &Connection, receipt_no: &str, at: i64) -> Result<(), butane::Error> {
    let mut row = PrintLog { receipt_no: receipt_no.to_owned(), printed_at: at };
    row.save(conn)?;
    Ok(())
}

pub fn printed_since(conn: &Connection, since: i64) -> Result<Vec<PrintLog>, butane::Error> {
    PrintLog::query().filter(BoolExpr::Ge(Box::new(PrintLog::fields().printed_at().into()), Box::new(since.into()))).load(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE_DDL: &str = "CREATE TABLE replay_cache_fixture (
        replay_key TEXT PRIMARY KEY,
        receipt    BLOB NOT NULL
    )";

    #[test]
    fn opens_in_memory() {
        let conn = open(":memory:").unwrap();
        conn.execute(FIXTURE_DDL).unwrap();
        record_print(&conn, "R-1", 10).unwrap();
        assert_eq!(printed_since(&conn, 0).unwrap().len(), 1);
    }
}
