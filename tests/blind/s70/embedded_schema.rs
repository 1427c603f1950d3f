//! SQLite schema for the offline front-desk tablet (syncs when the network is back).
use std::sync::Mutex;

pub const TABLET_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tablet_idempotency (
    route       TEXT NOT NULL,
    idem_key    TEXT NOT NULL,
    response    BLOB,
    PRIMARY KEY (route, idem_key)
) WITHOUT ROWID, STRICT;

CREATE TABLE IF NOT EXISTS tablet_sync_queue (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    payload     BLOB NOT NULL
) STRICT;
";

pub const SERVER_SCHEMA: &str = idem_scope::POSTGRES_SCHEMA;

pub struct TabletDb {
    conn: Mutex<sqlite::Connection>,
}

impl TabletDb {
    pub fn open(path: &str) -> anyhow::Result<Self> {
        let conn = sqlite::open(path)?;
        conn.execute(TABLET_SCHEMA)?;
        Ok(Self { conn: Mutex::new(conn) })
    }

    pub fn queue(&self, payload: &[u8]) -> anyhow::Result<()> {
        let conn = self.conn.lock().unwrap();
        let mut stmt = conn.prepare("INSERT INTO tablet_sync_queue (payload) VALUES (?)")?;
        stmt.bind((1, payload))?;
        stmt.next()?;
        Ok(())
    }
}
