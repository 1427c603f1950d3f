use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::RwLock;
use ulid::Ulid;

#[derive(Clone, Default)]
pub struct ReplayTable {
    inner: Arc<RwLock<BTreeMap<String, String>>>,
}

impl ReplayTable {
    pub async fn put(&self, key: &str, value: &str) {
        self.inner.write().await.insert(key.to_owned(), value.to_owned());
    }
    pub async fn get(&self, key: &str) -> Option<String> {
        self.inner.read().await.get(key).cloned()
    }
}

pub struct Caller {
    pub tenant: String,
    pub principal: String,
}

pub async fn client_path(tbl: &ReplayTable, who: &Caller, headers: &[(String, String)]) -> Option<String> {
    let k = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))?.1.clone();
    let key = idem_scope::scoped(&who.tenant, &who.principal, "sync", &k).ok()?;
    tbl.get(key.storage_key()).await
}

pub async fn retry_sync(tbl: &ReplayTable, who: &Caller, delivery_id: &str) {
    let key = format!("{}\u{0}{}\u{0}sync\u{0}replay:{}", who.tenant, who.principal, delivery_id);
    tbl.put(&key, "queued").await;
}

pub async fn nightly_sync(tbl: &ReplayTable, who: &Caller) {
    let run_id = Ulid::new().to_string();
    let key = idem_scope::scoped_server(&who.tenant, &who.principal, "sync", &run_id).expect("valid scope");
    tbl.put(key.storage_key(), "scheduled").await;
}

pub async fn manual_resync(tbl: &ReplayTable, who: &Caller) {
    let job_id = uuid::Uuid::new_v4();
    let key = idem_scope::scoped(&who.tenant, &who.principal, "sync", &job_id.to_string()).expect("valid scope");
    tbl.put(key.storage_key(), "manual").await;
}
