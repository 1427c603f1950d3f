//! Bulk import endpoint: the import runs in a spawned task after the 202.
use http::HeaderMap;
use idem_scope::{scoped, Store, StoredResponse, Fingerprint};
use std::time::Duration;
use std::sync::Arc;

pub struct Importer<S: Store> {
    store: S,
    parser: Arc<Parser>,
}

pub struct Parser;
impl Parser {
    pub async fn parse(&self, _b: &[u8]) -> anyhow::Result<Vec<String>> { Ok(vec![]) }
    pub async fn load(&self, _rows: Vec<String>) -> anyhow::Result<usize> { Ok(0) }
}

impl<S: Store> Importer<S> {
    pub fn start(&self, headers: &HeaderMap, workspace_id: String, actor: String, body: Vec<u8>) -> anyhow::Result<u16> {
        let k = headers.get("idempotency-key").ok_or_else(|| anyhow::anyhow!("400"))?.to_str()?.to_owned();
        let store = self.store.clone();
        let parser = Arc::clone(&self.parser);
        tokio::spawn(async move {
            let key = scoped(&workspace_id, &actor, "imports.start", &k)?;
            let fp = Fingerprint::of("imports.start", &body);
            store.claim(&key, &fp, Duration::from_secs(600)).await?;
            let rows = parser.parse(&body).await?;
            let n = parser.load(rows).await?;
            let resp = StoredResponse { status: 200, headers: vec![], body: n.to_string().into_bytes() };
            store.complete(&key, &resp, Duration::from_secs(86_400)).await?;
            anyhow::Ok(())
        });
        Ok(202)
    }

    pub fn start_guarded(&self, headers: &HeaderMap, workspace_id: String, actor: String, body: Vec<u8>) -> anyhow::Result<u16> {
        let k = headers.get("idempotency-key").ok_or_else(|| anyhow::anyhow!("400"))?.to_str()?.to_owned();
        let store = self.store.clone();
        let parser = Arc::clone(&self.parser);
        tokio::spawn(async move {
            let key = scoped(&workspace_id, &actor, "imports.start_v2", &k)?;
            let fp = Fingerprint::of("imports.start_v2", &body);
            store.claim(&key, &fp, Duration::from_secs(600)).await?;
            let releaser = store.clone();
            let rk = key.clone();
            let guard = scopeguard::guard((), move |_| {
                tokio::spawn(async move { let _ = releaser.release(&rk).await; });
            });
            let rows = parser.parse(&body).await?;
            let n = parser.load(rows).await?;
            let resp = StoredResponse { status: 200, headers: vec![], body: n.to_string().into_bytes() };
            store.complete(&key, &resp, Duration::from_secs(86_400)).await?;
            scopeguard::ScopeGuard::into_inner(guard);
            anyhow::Ok(())
        });
        Ok(202)
    }
}
