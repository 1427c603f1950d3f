//! Report export endpoints behind the yew SSR dashboard.
use hashbrown::HashMap;
use http::{HeaderMap, StatusCode};
use std::sync::Mutex;

pub struct Auth {
    pub tenant_id: String,
    pub user_id: String,
}

type Reply = (StatusCode, String);

pub struct Exports {
    by_tenant: Mutex<HashMap<(String, String), Reply>>,
    scoped: Mutex<HashMap<(String, String, &'static str, String), Reply>>,
}

fn idem(headers: &HeaderMap) -> Result<String, Reply> {
    headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .ok_or((StatusCode::BAD_REQUEST, "missing Idempotency-Key".into()))
}

impl Exports {
    pub fn start_csv(&self, auth: &Auth, headers: &HeaderMap) -> Reply {
        let key = match idem(headers) {
            Ok(k) => k,
            Err(p) => return p,
        };
        let mut map = self.by_tenant.lock().unwrap();
        map.entry((auth.tenant_id.clone(), key.clone()))
            .or_insert_with(|| (StatusCode::ACCEPTED, format!("{{\"export\":\"csv\",\"by\":\"{}\"}}", auth.user_id)))
            .clone()
    }

    pub fn start_pdf(&self, auth: &Auth, headers: &HeaderMap) -> Reply {
        let key = match idem(headers) {
            Ok(k) => k,
            Err(p) => return p,
        };
        let mut map = self.scoped.lock().unwrap();
        let route: &'static str = "exports.pdf";
        map.entry((auth.tenant_id.clone(), auth.user_id.clone(), route, key))
            .or_insert_with(|| (StatusCode::ACCEPTED, "{\"export\":\"pdf\"}".into()))
            .clone()
    }
}
