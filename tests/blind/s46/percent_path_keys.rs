use percent_encoding::{percent_decode_str, utf8_percent_encode, NON_ALPHANUMERIC};
use std::collections::BTreeMap;
use tokio::sync::RwLock;

pub struct PathReq {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub org_id: String,
    pub user_id: String,
}

pub struct Dedupe {
    pub table: RwLock<BTreeMap<String, u16>>,
}

pub async fn handle(d: &Dedupe, req: &PathReq) -> u16 {
    let Some(raw) = req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.clone()) else {
        return 400;
    };
    let decoded = percent_decode_str(&raw).decode_utf8_lossy().to_string();
    let route = req.path.trim_end_matches('/');
    let Ok(key) = idem_scope::scoped(&req.org_id, &req.user_id, route, &decoded) else { return 400 };
    let mut t = d.table.write().await;
    *t.entry(key.storage_key().to_owned()).or_insert(201)
}

pub fn display_key(raw: &str) -> String {
    utf8_percent_encode(raw, NON_ALPHANUMERIC).to_string()
}
