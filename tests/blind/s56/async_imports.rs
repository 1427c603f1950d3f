use std::sync::Arc;

use anyhow::bail;
use idem_scope::{scoped, ClaimGuard, Fingerprint, ScopedKey};
use tokio::sync::oneshot;

use crate::replay_store::AsyncStore;

pub struct ImportRequest {
    pub workspace_id: String,
    pub user_id: String,
    pub source_url: String,
    pub raw: Vec<u8>,
}

pub struct Importer {
    store: Arc<AsyncStore>,
    fetcher: crate::fetch::Fetcher,
}

fn header_key(headers: &http::HeaderMap) -> anyhow::Result<String> {
    Ok(headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?
        .to_owned())
}

impl Importer {
    pub fn start_import(self: &Arc<Self>, headers: &http::HeaderMap, req: ImportRequest) -> anyhow::Result<oneshot::Receiver<anyhow::Result<Vec<u8>>>> {
        let key = header_key(headers)?;
        let sk: ScopedKey = scoped(&req.workspace_id, &req.user_id, "imports.start", &key)?;
        let (tx, rx) = oneshot::channel();
        let me = self.clone();
        tokio::spawn(async move {
            let res = async {
                me.store.begin(&sk).await?;
                if !req.source_url.starts_with("https://") {
                    bail!("only https sources can be imported");
                }
                let rows = me.fetcher.fetch_csv(&req.source_url).await?;
                let body = serde_json::to_vec(&rows.len())?;
                me.store.finish(&sk, &body).await?;
                Ok(body)
            }
            .await;
            let _ = tx.send(res);
        });
        Ok(rx)
    }

    pub async fn import_now(self: &Arc<Self>, headers: &http::HeaderMap, req: ImportRequest) -> anyhow::Result<Vec<u8>> {
        let key = header_key(headers)?;
        let sk: ScopedKey = scoped(&req.workspace_id, &req.user_id, "imports.run", &key)?;
        let fp = Fingerprint::of("imports.run", &req.raw);

        self.store.claim(&sk, &fp).await?;
        let store = self.store.clone();
        let release_key = sk.clone();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = store.release(&release_key).await;
            });
        });
        let rows = self.fetcher.fetch_csv(&req.source_url).await?;
        let body = serde_json::to_vec(&rows.len())?;
        self.store.complete(&sk, &body).await?;
        guard.complete();
        Ok(body)
    }
}
