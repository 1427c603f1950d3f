use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct Head {
    pub headers: BTreeMap<String, String>,
    pub tenant_id: String,
    pub user_id: String,
}

pub struct Traces {
    pub spans: RwLock<Vec<String>>,
}

pub struct Sessions {
    pub by_token: RwLock<BTreeMap<String, String>>,
}

pub fn trace(tr: &Traces, head: &Head) {
    let request_id = head.headers.get("x-request-id").cloned().unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let line = format!("req={} tenant={} user={}", request_id, head.tenant_id, head.user_id);
    tr.spans.write().unwrap().push(line);
    log::info!(target: "http", "request_id={request_id}");
}

pub fn login(sess: &Sessions, user_id: &str) -> String {
    let token = uuid::Uuid::new_v4().to_string();
    sess.by_token.write().unwrap().insert(token.clone(), user_id.to_owned());
    token
}
