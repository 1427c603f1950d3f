//! Generic idempotent executor used by the orders service (handler stored in the struct).
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use idem_scope::{ClaimGuard, Fingerprint};

pub trait Store: Clone + Send + Sync + 'static {
    async fn try_claim(&self, key: &str, fp: &Fingerprint, lease: Duration) -> Result<(), StoreError>;
    async fn complete(&self, key: &str, response: &[u8]) -> Result<(), StoreError>;
    async fn release(&self, key: &str) -> Result<(), StoreError>;
}

#[derive(Debug)]
pub struct StoreError;

type Handler = Box<dyn Fn(Vec<u8>) -> Pin<Box<dyn Future<Output = Result<Vec<u8>, ExecError>> + Send>> + Send + Sync>;

pub struct Executor<S: Store> {
    store: S,
    handler: Handler,
    route: &'static str,
}

impl<S: Store> Executor<S> {
    pub async fn run(&self, parts: &http::request::Parts, who: &crate::Who, body: Vec<u8>) -> Result<Vec<u8>, ExecError> {
        let client_key = parts
            .headers
            .get("Idempotency-Key")
            .ok_or(ExecError::MissingKey)?
            .to_str()
            .map_err(|_| ExecError::BadKey)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, self.route, client_key)?;
        let fp = Fingerprint::of(self.route, &body);

        self.store.try_claim(key.storage_key(), &fp, Duration::from_secs(300)).await?;
        let response = (self.handler)(body).await?;
        self.store.complete(key.storage_key(), &response).await?;
        Ok(response)
    }

    pub async fn run_guarded(&self, parts: &http::request::Parts, who: &crate::Who, body: Vec<u8>) -> Result<Vec<u8>, ExecError> {
        let client_key = parts
            .headers
            .get("Idempotency-Key")
            .ok_or(ExecError::MissingKey)?
            .to_str()
            .map_err(|_| ExecError::BadKey)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, self.route, client_key)?;
        let fp = Fingerprint::of(self.route, &body);

        self.store.try_claim(key.storage_key(), &fp, Duration::from_secs(300)).await?;
        let store = self.store.clone();
        let owned = key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = store.release(&owned).await;
            });
        });
        let response = (self.handler)(body).await?;
        self.store.complete(key.storage_key(), &response).await?;
        guard.complete();
        Ok(response)
    }
}

#[derive(Debug)]
pub enum ExecError {
    MissingKey,
    BadKey,
    Scope(idem_scope::ScopeError),
    Store(StoreError),
    Handler(String),
}
