use std::collections::BTreeMap;
use std::sync::Mutex;

pub struct Caller {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Dedup {
    rows: Mutex<BTreeMap<String, String>>,
}

impl Dedup {
    pub fn client(&self, c: &Caller, headers: &[(String, String)]) -> Option<String> {
        let k = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))?.1.clone();
        let key = idem_scope::scoped(&c.tenant_id, &c.user_id, "ingest", &k).ok()?;
        let slot = format!("u:{}", key.storage_key());
        self.rows.lock().unwrap().get(&slot).cloned()
    }

    pub fn redeliver(&self, c: &Caller, event_id: &str) {
        let key = format!("s:{}\u{0}{}\u{0}ingest\u{0}{}", c.tenant_id, c.user_id, event_id);
        self.rows.lock().unwrap().insert(key, "redelivered".into());
    }
}
