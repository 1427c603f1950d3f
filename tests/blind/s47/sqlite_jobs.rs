use http::HeaderMap;
use sqlite::{Connection, State};

pub const MIGRATIONS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS job_runs (
        job_name TEXT PRIMARY KEY,
        last_run INTEGER NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS idempotency_cache (
        idem_key TEXT PRIMARY KEY,
        response BLOB NOT NULL,
        created_at INTEGER NOT NULL
    )",
    "CREATE TABLE IF NOT EXISTS replay_guard (
        tenant_id TEXT NOT NULL,
        principal_id TEXT NOT NULL,
        route TEXT NOT NULL,
        idem_key TEXT NOT NULL,
        fingerprint BLOB NOT NULL,
        PRIMARY KEY (tenant_id, principal_id, route, idem_key)
    )",
];

pub fn migrate(conn: &Connection) -> sqlite::Result<()> {
    for m in MIGRATIONS {
        conn.execute(m)?;
    }
    Ok(())
}

pub fn cached_response(conn: &Connection, headers: &HeaderMap) -> sqlite::Result<Option<Vec<u8>>> {
    let key = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.to_owned());
    let Some(key) = key else {
        return Ok(None);
    };
    let mut stmt = conn.prepare("SELECT response FROM idempotency_cache WHERE idem_key = ?")?;
    stmt.bind((1, key.as_str()))?;
    if let State::Row = stmt.next()? {
        return Ok(Some(stmt.read::<Vec<u8>, _>("response")?));
    }
    Ok(None)
}

pub fn touch_job(conn: &Connection, job_name: &str, now: i64) -> sqlite::Result<()> {
    let mut stmt = conn.prepare("INSERT OR REPLACE INTO job_runs (job_name, last_run) VALUES (?, ?)")?;
    stmt.bind((1, job_name))?;
    stmt.bind((2, now))?;
    stmt.next()?;
    Ok(())
}
