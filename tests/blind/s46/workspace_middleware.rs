use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::Mutex;

pub struct RequestHead {
    pub headers: BTreeMap<String, String>,
    pub workspace_id: Option<String>,
    pub actor: Option<String>,
    pub route: &'static str,
}

type Next = Box<dyn Fn(&RequestHead) -> Vec<u8> + Send + Sync>;

pub struct IdempotencyMiddleware {
    store: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
    next: Next,
}

impl IdempotencyMiddleware {
    pub async fn handle(&self, head: RequestHead) -> Vec<u8> {
        let Some(key) = head.headers.get("idempotency-key").cloned() else {
            return (self.next)(&head);
        };
        let workspace = head.workspace_id.clone().unwrap_or_default();
        let actor = if let Some(a) = head.actor.clone() { a } else { "guest".to_string() };
        let scoped = idem_scope::scoped(&workspace, &actor, head.route, &key);
        let Ok(scoped) = scoped else { return b"400".to_vec() };
        let mut guard = self.store.lock().await;
        if let Some(hit) = guard.get(scoped.storage_key()) {
            return hit.clone();
        }
        drop(guard);
        let out = (self.next)(&head);
        self.store.lock().await.insert(scoped.storage_key().to_owned(), out.clone());
        out
    }

    pub fn page_size(head: &RequestHead) -> usize {
        head.headers.get("x-page-size").and_then(|v| v.parse().ok()).unwrap_or_default()
    }
}
