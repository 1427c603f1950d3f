use std::time::Duration;

use idem_scope::{scoped, Fingerprint, ScopedKey};
use scopeguard::guard;

pub enum Claimed {
    New,
    Existing(Vec<u8>),
}

#[async_trait::async_trait]
pub trait IdemStore: Send + Sync {
    async fn claim(&self, key: &ScopedKey, fp: &Fingerprint, lease: Duration) -> anyhow::Result<Claimed>;
    async fn complete(&self, key: &ScopedKey, response: &[u8]) -> anyhow::Result<()>;
    async fn release(&self, key: &ScopedKey) -> anyhow::Result<()>;
}

pub struct Request<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub idempotency_key: &'a str,
    pub body: &'a [u8],
}

async fn run_export(body: &[u8]) -> anyhow::Result<Vec<u8>> {
    Ok(body.to_vec())
}

pub async fn export_with_deadline<S: IdemStore>(store: &S, req: Request<'_>, shutdown: async_channel::Receiver<()>) -> anyhow::Result<Vec<u8>> {
    let sk = scoped(req.tenant_id, req.user_id, "exports.run", req.idempotency_key)?;
    let fp = Fingerprint::of("exports.run", req.body);
    if let Claimed::Existing(r) = store.claim(&sk, &fp, Duration::from_secs(300)).await? {
        return Ok(r);
    }
    let out = tokio::select! {
        res = run_export(req.body) => res?,
        _ = shutdown.recv() => anyhow::bail!("shutting down"),
        _ = tokio::time::sleep(Duration::from_secs(30)) => anyhow::bail!("deadline exceeded"),
    };
    store.complete(&sk, &out).await?;
    Ok(out)
}

pub async fn export_guarded<S: IdemStore + Clone + 'static>(store: &S, req: Request<'_>) -> anyhow::Result<Vec<u8>> {
    let sk = scoped(req.tenant_id, req.user_id, "exports.run", req.idempotency_key)?;
    let fp = Fingerprint::of("exports.run", req.body);
    if let Claimed::Existing(r) = store.claim(&sk, &fp, Duration::from_secs(300)).await? {
        return Ok(r);
    }
    let releaser = store.clone();
    let pending = guard(sk.clone(), move |k| {
        smol::block_on(async move {
            let _ = releaser.release(&k).await;
        });
    });
    let out = tokio::select! {
        res = run_export(req.body) => res?,
        _ = tokio::time::sleep(Duration::from_secs(30)) => anyhow::bail!("deadline exceeded"),
    };
    store.complete(&pending, &out).await?;
    scopeguard::ScopeGuard::into_inner(pending);
    Ok(out)
}
