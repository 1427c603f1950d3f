use std::sync::Mutex;

use idem_scope::{Fingerprint, ScopedKey};
use rusqlite::{params, Connection, OptionalExtension};

pub const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope_version TEXT NOT NULL,
    tenant_id     TEXT NOT NULL,
    principal_id  TEXT NOT NULL,
    route         TEXT NOT NULL,
    ns            TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    fingerprint   BLOB NOT NULL,
    status        TEXT NOT NULL,
    response      BLOB,
    created_at    INTEGER NOT NULL DEFAULT (unixepoch()),
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
);
"#;

pub struct SqliteIdem {
    conn: Mutex<Connection>,
}

impl SqliteIdem {
    pub fn open(path: &str) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        let me = Self { conn: Mutex::new(conn) };
        me.migrate()?;
        Ok(me)
    }

    fn migrate(&self) -> rusqlite::Result<()> {
        let mut conn = self.conn.lock().unwrap();
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)?;
        tx.commit()
    }

    pub fn run_once<F>(&self, sk: &ScopedKey, fp: &Fingerprint, work: F) -> anyhow::Result<Vec<u8>>
    where
        F: FnOnce() -> anyhow::Result<Vec<u8>>,
    {
        let c = sk.columns();
        let conn = self.conn.lock().expect("sqlite mutex poisoned");
        let prior: Option<(String, Option<Vec<u8>>)> = conn
            .query_row(
                "SELECT status, response FROM idempotency_keys
                 WHERE scope_version = ?1 AND tenant_id = ?2 AND principal_id = ?3 AND route = ?4 AND ns = ?5 AND idem_key = ?6",
                params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((status, response)) = prior {
            return match (status.as_str(), response) {
                ("completed", Some(body)) => Ok(body),
                _ => Err(anyhow::anyhow!("request still in progress")),
            };
        }

        conn.execute(
            "INSERT INTO idempotency_keys (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'in_progress')",
            params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, &fp.as_bytes()[..]],
        )?;

        let body = work()?;

        conn.execute(
            "UPDATE idempotency_keys SET status = 'completed', response = ?7
             WHERE scope_version = ?1 AND tenant_id = ?2 AND principal_id = ?3 AND route = ?4 AND ns = ?5 AND idem_key = ?6",
            params![c.scope_version, c.tenant_id, c.principal_id, c.route, c.ns, c.idem_key, &body],
        )?;
        Ok(body)
    }
}
