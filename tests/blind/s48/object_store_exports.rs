use bytes::Bytes;
use idem_scope::scoped;
use object_store::path::Path;
use object_store::{ObjectStore, PutMode, PutOptions, PutPayload};
use rama::http::{HeaderMap, StatusCode};
use std::sync::Arc;

pub struct Caller {
    pub workspace_id: String,
    pub api_key_id: String,
}

pub struct ExportJob {
    pub format: String,
    pub rows: usize,
}

fn idem_header(h: &HeaderMap) -> Result<String, StatusCode> {
    h.get("X-Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .map(|s| s.to_owned())
        .ok_or(StatusCode::BAD_REQUEST)
}

fn render(job: &ExportJob) -> Bytes {
    Bytes::from(format!("format={} rows={}", job.format, job.rows))
}

pub async fn start_export(
    store: Arc<dyn ObjectStore>,
    caller: &Caller,
    headers: &HeaderMap,
    job: ExportJob,
) -> Result<Bytes, StatusCode> {
    let k = idem_header(headers)?;
    let scoped_key = scoped(&caller.workspace_id, &caller.api_key_id, "default", &k).map_err(|_| StatusCode::BAD_REQUEST)?;
    let location = Path::from(scoped_key.storage_key());
    if let Ok(prev) = store.get(&location).await {
        return prev.bytes().await.map_err(|_| StatusCode::BAD_GATEWAY);
    }
    let out = render(&job);
    let opts = PutOptions { mode: PutMode::Create, ..Default::default() };
    store
        .put_opts(&location, PutPayload::from(out.clone()), opts)
        .await
        .map_err(|_| StatusCode::CONFLICT)?;
    let report = Path::from(format!("exports/{}/{}.csv", caller.workspace_id, job.rows));
    store.put(&report, PutPayload::from(out.clone())).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    Ok(out)
}
