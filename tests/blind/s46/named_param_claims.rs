use std::collections::BTreeMap;
use std::sync::Mutex;

pub struct ClaimTable {
    rows: Mutex<BTreeMap<String, &'static str>>,
}

impl ClaimTable {
    pub fn try_claim(&self, k: &str) -> bool {
        let mut r = self.rows.lock().unwrap();
        if r.contains_key(k) {
            return false;
        }
        r.insert(k.to_owned(), "in_progress");
        true
    }
    pub fn commit(&self, k: &str) {
        self.rows.lock().unwrap().insert(k.to_owned(), "completed");
    }
}

fn work(n: usize) -> Result<usize, String> {
    if n == 0 { Err("zero".into()) } else { Ok(n) }
}

pub fn process(table: &ClaimTable, tenant_id: &str, user_id: &str, idempotency_key: &str) -> Result<usize, String> {
    let key = idem_scope::scoped(tenant_id, user_id, "process", idempotency_key).map_err(|e| e.to_string())?;
    if !table.try_claim(key.storage_key()) {
        return Err("409".into());
    }
    let n = work(idempotency_key.len())?;
    table.commit(key.storage_key());
    Ok(n)
}

pub fn lookup(table: &ClaimTable, x_idempotency_key: &str) -> bool {
    table.rows.lock().unwrap().contains_key(x_idempotency_key)
}
