use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
pub struct MemConn {
    rows: Arc<Mutex<BTreeMap<String, String>>>,
}

impl MemConn {
    pub fn set_nx(&self, key: &str, value: &str) -> bool {
        let mut rows = self.rows.lock().unwrap();
        if rows.contains_key(key) {
            return false;
        }
        rows.insert(key.to_string(), value.to_string());
        true
    }
    pub fn set(&self, key: &str, value: &str) {
        self.rows.lock().unwrap().insert(key.to_string(), value.to_string());
    }
    pub fn del(&self, key: &str) {
        self.rows.lock().unwrap().remove(key);
    }
}

pub struct MemManager;

impl r2d2::ManageConnection for MemManager {
    type Connection = MemConn;
    type Error = std::io::Error;
    fn connect(&self) -> Result<MemConn, Self::Error> {
        Ok(MemConn::default())
    }
    fn is_valid(&self, _conn: &mut MemConn) -> Result<(), Self::Error> {
        Ok(())
    }
    fn has_broken(&self, _conn: &mut MemConn) -> bool {
        false
    }
}

pub struct Ctx {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: BTreeMap<String, String>,
}

fn provision(_ctx: &Ctx) -> Result<String, String> {
    Ok("ok".into())
}

pub fn provision_once(pool: &r2d2::Pool<MemManager>, ctx: &Ctx) -> Result<String, String> {
    let conn = pool.get().map_err(|e| e.to_string())?;
    let client_key = ctx.headers.get("idempotency-key").ok_or("400")?;
    let key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "provision", client_key).map_err(|e| e.to_string())?;
    if !conn.set_nx(key.storage_key(), "in_progress") {
        return Err("409".into());
    }
    match provision(ctx) {
        Ok(out) => {
            conn.set(key.storage_key(), &out);
            Ok(out)
        }
        Err(e) => {
            conn.del(key.storage_key());
            Err(e)
        }
    }
}

pub fn provision_fast(pool: &r2d2::Pool<MemManager>, ctx: &Ctx) -> Result<String, String> {
    let conn = pool.get().map_err(|e| e.to_string())?;
    let client_key = ctx.headers.get("idempotency-key").ok_or("400")?;
    let key = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "provision", client_key).map_err(|e| e.to_string())?;
    if !conn.set_nx(key.storage_key(), "in_progress") {
        return Err("409".into());
    }
    let out = provision(ctx)?;
    conn.set(key.storage_key(), &out);
    Ok(out)
}
