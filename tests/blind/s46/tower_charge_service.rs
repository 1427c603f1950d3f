use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tower::Service;

pub struct Inbound {
    pub header_pairs: Vec<(String, String)>,
    pub tenant: String,
    pub caller_id: String,
    pub body: Vec<u8>,
}

#[async_trait::async_trait]
pub trait IdemStore: Send + Sync {
    async fn claim(&self, key: &str) -> anyhow::Result<bool>;
    async fn complete(&self, key: &str, resp: &[u8]) -> anyhow::Result<()>;
    async fn release(&self, key: &str) -> anyhow::Result<()>;
}

#[derive(Clone)]
pub struct ChargeSvc {
    store: Arc<dyn IdemStore>,
}

fn header<'a>(req: &'a Inbound, name: &str) -> Option<&'a str> {
    req.header_pairs
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl Service<Inbound> for ChargeSvc {
    type Response = Vec<u8>;
    type Error = anyhow::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Vec<u8>, anyhow::Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Inbound) -> Self::Future {
        let store = self.store.clone();
        Box::pin(async move {
            let client_op = header(&req, "Idempotency-Key")
                .ok_or_else(|| anyhow::anyhow!("missing key"))?
                .to_owned();
            let key = idem_scope::scoped(&req.tenant, &req.caller_id, "charge", &client_op)?;
            if !store.claim(key.storage_key()).await? {
                return Err(anyhow::anyhow!("in progress"));
            }
            let receipt = run_charge(&req.body).await?;
            store.complete(key.storage_key(), &receipt).await?;
            Ok(receipt)
        })
    }
}

async fn run_charge(body: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(body.to_vec())
}
