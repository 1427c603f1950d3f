use azure_storage_blobs::prelude::{BlobServiceClient, ContainerClient};
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

/// Finished responses are kept as JSON blobs so support can inspect them.
pub struct BlobReplays {
    container: ContainerClient,
}

impl BlobReplays {
    pub fn new(service: &BlobServiceClient) -> Self {
        Self { container: service.container_client("idempotent-replays") }
    }

    async fn get(&self, path: &str) -> Option<Vec<u8>> {
        self.container.blob_client(path).get_content().await.ok()
    }

    async fn put(&self, path: &str, body: Vec<u8>) -> azure_core::Result<()> {
        self.container
            .blob_client(path)
            .put_block_blob(body)
            .content_type("application/json")
            .await
            .map(|_| ())
    }
}

pub async fn create_payout(req: Req, caller: Caller, replays: &BlobReplays) -> Result<Reply, Reply> {
    let raw = req
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::text(400, "Idempotency-Key required"))?;
    // keep the blob path flat: a key must never add path segments
    let k = raw.replace('/', "_");
    let path = format!("{}/{}/payouts/{}.json", caller.tenant_id, caller.user_id, k);

    if let Some(prev) = replays.get(&path).await {
        return Ok(Reply::raw(200, prev).with_header("idempotent-replayed", "true"));
    }
    let payout: serde_json::Value = req.json()?;
    let stored = serde_json::to_vec(&serde_json::json!({ "payout": payout, "state": "scheduled" }))
        .map_err(Reply::internal)?;
    replays.put(&path, stored.clone()).await.map_err(Reply::internal)?;
    Ok(Reply::raw(201, stored))
}

pub async fn upload_statement(caller: Caller, replays: &BlobReplays, file_name: &str, pdf: Vec<u8>) -> Result<Reply, Reply> {
    let safe_name = file_name.replace(' ', "-").replace('/', "");
    let path = format!("{}/statements/{}", caller.tenant_id, safe_name);
    replays.put(&path, pdf).await.map_err(Reply::internal)?;
    Ok(Reply::status(204))
}
