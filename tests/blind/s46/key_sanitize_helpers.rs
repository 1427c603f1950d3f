use std::collections::BTreeMap;
use std::sync::RwLock;

macro_rules! header {
    ($req:expr, $name:literal) => {
        $req.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case($name)).map(|(_, v)| v.clone())
    };
}

pub struct Incoming {
    pub org_id: String,
    pub sub: String,
    pub operation: String,
    pub headers: Vec<(String, String)>,
}

pub struct KeyCache {
    pub map: RwLock<BTreeMap<String, String>>,
}

fn squash(s: &str) -> String {
    s.replacen('#', "", usize::MAX)
}

pub fn ship(cache: &KeyCache, req: &Incoming) -> Option<()> {
    let k = header!(req, "Idempotency-Key")?;
    let key = idem_scope::scoped(&req.org_id, &req.sub, &req.operation, &squash(&k)).ok()?;
    cache.map.write().unwrap().insert(key.storage_key().to_owned(), "shipped".into());
    Some(())
}

pub fn hold(cache: &KeyCache, req: &Incoming) -> Option<()> {
    let k = header!(req, "Idempotency-Key")?;
    let mut sub = req.sub.clone();
    sub.retain(|c| c != '\u{1e}');
    let key = idem_scope::scoped(&req.org_id, &sub, &req.operation, &k).ok()?;
    cache.map.write().unwrap().insert(key.storage_key().to_owned(), "held".into());
    Some(())
}

pub fn release_hold(cache: &KeyCache, req: &Incoming) -> Option<()> {
    let k = header!(req, "Idempotency-Key")?;
    let op = req.operation.to_ascii_lowercase();
    let key = idem_scope::scoped(&req.org_id, &req.sub, &op, &k).ok()?;
    cache.map.write().unwrap().remove(key.storage_key());
    Some(())
}

pub fn reroute(cache: &KeyCache, req: &Incoming) -> Option<()> {
    let k = header!(req, "Idempotency-Key")?;
    let org = req.org_id.replace("\0", "");
    let key = idem_scope::scoped(&org, &req.sub, "reroute", &k).ok()?;
    cache.map.write().unwrap().insert(key.storage_key().to_owned(), "rerouted".into());
    Some(())
}

pub fn slug(title: &str) -> String {
    title.trim_start_matches('/').replace(' ', "-")
}
