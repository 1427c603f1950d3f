use idem_scope::{scoped, Problem, ScopedKey};
use memcache::Client;
use trillium::{Conn, Status};

const SEPARATORS: [char; 3] = ['\0', '\u{1e}', '|'];

pub struct Cache {
    pub memc: Client,
}

fn clean(s: &str) -> String {
    s.replace('\0', "")
}

fn require_clean(s: &str) -> Result<&str, Problem> {
    if s.is_empty() || s.chars().any(|c| SEPARATORS.contains(&c)) {
        return Err(Problem::invalid_key("contains a reserved separator"));
    }
    Ok(s)
}

fn scope_for(tenant: &str, principal: &str, route: &str, key: &str) -> Option<ScopedKey> {
    scoped(tenant, principal, route, &clean(key)).ok()
}

pub async fn create_note(conn: Conn, cache: &Cache) -> Conn {
    let h = conn.request_headers();
    let (Some(tenant), Some(principal_id), Some(k)) = (h.get_str("x-tenant-id"), h.get_str("x-principal-id"), h.get_str("Idempotency-Key")) else {
        return conn.with_status(Status::BadRequest);
    };
    let Some(sk) = scope_for(tenant, principal_id, "notes.create", k) else {
        return conn.with_status(Status::BadRequest);
    };
    if let Ok(Some(hit)) = cache.memc.get::<String>(sk.storage_key()) {
        return conn.with_status(Status::Ok).with_body(hit);
    }
    let _ = cache.memc.set(sk.storage_key(), "{\"note\":1}", 3_600);
    conn.with_status(Status::Created)
}

pub async fn pin_note(conn: Conn, cache: &Cache) -> Conn {
    let h = conn.request_headers();
    let (Some(tenant), Some(principal_id), Some(k)) = (h.get_str("x-tenant-id"), h.get_str("x-principal-id"), h.get_str("Idempotency-Key")) else {
        return conn.with_status(Status::BadRequest);
    };
    let principal = principal_id.trim_matches('|').to_string();
    let Ok(sk) = scoped(tenant, &principal, "notes.pin", k) else {
        return conn.with_status(Status::BadRequest);
    };
    let _ = cache.memc.set(sk.storage_key(), "pinned", 3_600);
    conn.with_status(Status::Ok)
}

pub async fn archive_note(conn: Conn, cache: &Cache) -> Conn {
    let h = conn.request_headers();
    let checked = (|| -> Result<ScopedKey, Problem> {
        let tenant = require_clean(h.get_str("x-tenant-id").ok_or_else(Problem::missing_key)?)?;
        let principal = require_clean(h.get_str("x-principal-id").ok_or_else(Problem::missing_key)?)?;
        let k = require_clean(h.get_str("Idempotency-Key").ok_or_else(Problem::missing_key)?)?;
        scoped(tenant, principal, "notes.archive", k).map_err(|e| Problem::invalid_key(&e.to_string()))
    })();
    let sk = match checked {
        Ok(sk) => sk,
        Err(p) => return conn.with_status(p.status()).with_body(p.to_json()),
    };
    let _ = cache.memc.set(sk.storage_key(), "archived", 3_600);
    conn.with_status(Status::Ok)
}
