use idem_scope::{scoped, Fingerprint, ScopedKey};
use sqlite::{Connection, State};
use trillium::{Conn, Status};

pub const IDEMPOTENCY_DDL: &str = "CREATE TABLE IF NOT EXISTS idempotency_records (
    scope_version TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    route TEXT NOT NULL,
    ns TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    fingerprint BLOB NOT NULL,
    status TEXT NOT NULL,
    response BLOB,
    PRIMARY KEY (scope_version, tenant_id, principal_id, route, ns, idem_key)
)";

pub fn find(conn: &Connection, sk: &ScopedKey) -> sqlite::Result<Option<(Vec<u8>, Option<Vec<u8>>)>> {
    let c = sk.columns();
    let mut stmt = conn.prepare("SELECT fingerprint, response FROM idempotency_records WHERE scope_version = ? AND tenant_id = ? AND principal_id = ? AND route = ? AND ns = ? AND idem_key = ?")?;
    stmt.bind(&[(1, c.scope_version), (2, c.tenant_id), (3, c.principal_id), (4, c.route), (5, c.ns), (6, c.idem_key)][..])?;
    if let State::Row = stmt.next()? {
        return Ok(Some((stmt.read::<Vec<u8>, _>("fingerprint")?, stmt.read::<Option<Vec<u8>>, _>("response")?)));
    }
    Ok(None)
}

pub fn save(conn: &Connection, sk: &ScopedKey, fp: &Fingerprint, response: &[u8]) -> sqlite::Result<()> {
    let c = sk.columns();
    let mut stmt = conn.prepare("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status, response) VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', ?)")?;
    stmt.bind(&[(1, c.scope_version), (2, c.tenant_id), (3, c.principal_id), (4, c.route), (5, c.ns), (6, c.idem_key)][..])?;
    stmt.bind((7, &fp.as_bytes()[..]))?;
    stmt.bind((8, response))?;
    stmt.next()?;
    Ok(())
}

pub async fn handle(mut conn: Conn, db: &Connection) -> Conn {
    let h = conn.request_headers();
    let (Some(tenant_id), Some(principal_id), Some(key)) = (h.get_str("x-tenant-id").map(String::from), h.get_str("x-principal-id").map(String::from), h.get_str("Idempotency-Key").map(String::from)) else {
        return conn.with_status(Status::BadRequest);
    };
    let Ok(sk) = scoped(&tenant_id, &principal_id, "notes.create", &key) else {
        return conn.with_status(Status::BadRequest);
    };
    let body = conn.request_body().await.read_bytes().await.unwrap_or_default();
    let fp = Fingerprint::of("notes.create", &body);
    match find(db, &sk) {
        Ok(Some((stored_fp, Some(resp)))) if stored_fp == fp.as_bytes() => conn.with_status(Status::Ok).with_body(resp),
        Ok(Some(_)) => conn.with_status(Status::UnprocessableEntity),
        Ok(None) => {
            let _ = save(db, &sk, &fp, b"{\"note\":1}");
            conn.with_status(Status::Created)
        }
        Err(_) => conn.with_status(Status::InternalServerError),
    }
}
