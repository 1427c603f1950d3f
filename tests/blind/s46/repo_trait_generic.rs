use async_trait::async_trait;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use tokio::sync::RwLock;

#[async_trait]
pub trait Repository<K, V>: Send + Sync {
    async fn load(&self, key: &K) -> Option<V>;
    async fn save(&self, key: K, value: V);
}

pub struct MemRepo<K, V> {
    rows: RwLock<BTreeMap<K, V>>,
    _p: PhantomData<V>,
}

#[async_trait]
impl<K: Ord + Clone + Send + Sync, V: Clone + Send + Sync> Repository<K, V> for MemRepo<K, V> {
    async fn load(&self, key: &K) -> Option<V> {
        self.rows.read().await.get(key).cloned()
    }
    async fn save(&self, key: K, value: V) {
        self.rows.write().await.insert(key, value);
    }
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DedupKey {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: String,
    pub key: String,
}

pub struct Api {
    pub tenant_id: String,
    pub principal_id: String,
    pub headers: BTreeMap<String, String>,
}

pub async fn enroll(repo: &dyn Repository<DedupKey, String>, api: &Api) -> Option<String> {
    let key = api.headers.get("idempotency-key")?.clone();
    let dk = DedupKey { tenant_id: api.tenant_id.clone(), principal_id: api.principal_id.clone(), route: "enroll".into(), key };
    if let Some(v) = repo.load(&dk).await {
        return Some(v);
    }
    repo.save(dk, "enrolled".into()).await;
    Some("enrolled".into())
}

pub async fn unenroll(repo: &dyn Repository<DedupKey, String>, api: &Api) -> Option<String> {
    let key = api.headers.get("idempotency-key")?.clone();
    let dk = DedupKey { tenant_id: api.tenant_id.clone(), principal_id: api.principal_id.clone(), route: "".to_string(), key };
    repo.save(dk, "unenrolled".into()).await;
    Some("unenrolled".into())
}

pub async fn by_subject(repo: &dyn Repository<(String, String), String>, api: &Api) -> Option<String> {
    let key = api.headers.get("idempotency-key")?.clone();
    repo.load(&(api.principal_id.clone(), key)).await
}
