use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct Req {
    pub tenant_id: String,
    pub client_id: String,
    pub headers: Vec<(String, String)>,
    pub display_name: String,
}

pub struct KeyStore {
    kv: RwLock<BTreeMap<String, String>>,
}

fn hdr(req: &Req) -> Option<String> {
    req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone())
}

impl KeyStore {
    pub fn subscribe(&self, req: &Req) -> Result<(), String> {
        let raw = hdr(req).ok_or("missing key")?;
        let clean_key: String = raw.chars().filter(|c| *c != '\u{0}').collect();
        let key = idem_scope::scoped(&req.tenant_id, &req.client_id, "subscribe", &clean_key).map_err(|e| e.to_string())?;
        self.kv.write().unwrap().insert(key.storage_key().to_owned(), "ok".into());
        Ok(())
    }

    pub fn unsubscribe(&self, req: &Req) -> Result<(), String> {
        let raw = hdr(req).ok_or("missing key")?;
        let tenant = req.tenant_id.trim_matches('|');
        let key = idem_scope::scoped(tenant, &req.client_id, "unsubscribe", &raw).map_err(|e| e.to_string())?;
        self.kv.write().unwrap().insert(key.storage_key().to_owned(), "ok".into());
        Ok(())
    }

    pub fn rename(&self, req: &Req) -> Result<(), String> {
        let raw = hdr(req).ok_or("missing key")?;
        if raw.contains('\u{0}') || req.client_id.contains('\u{0}') {
            return Err("separator in component".into());
        }
        let pretty = req.display_name.replace('/', "-");
        let key = idem_scope::scoped(&req.tenant_id, &req.client_id, "rename", &raw).map_err(|e| e.to_string())?;
        self.kv.write().unwrap().insert(key.storage_key().to_owned(), pretty);
        Ok(())
    }
}
