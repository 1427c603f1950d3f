use std::sync::Arc;

use futures::lock::Mutex;
use memcache_async::ascii::Protocol;
use tuono_lib::{Request, Response};

use crate::media::{IngestJob, Ingestor};
use crate::session::{channel_of, Channel};

pub struct MediaApi {
    cache: Arc<Mutex<Protocol<crate::net::Conn>>>,
    ingestor: Ingestor,
}

fn object_path(channel: &Channel, file_name: &str) -> String {
    let name = file_name.trim_start_matches('/');
    format!("{}/uploads/{}", channel.tenant_id, name)
}

#[tuono_lib::api(POST)]
pub async fn ingest(req: Request, api: Arc<MediaApi>) -> Response {
    let channel = match channel_of(&req) {
        Ok(c) => c,
        Err(_) => return Response::status(401),
    };
    let client_key = match req.headers.get("idempotency-key").and_then(|v| v.to_str().ok()) {
        // Some SDKs send keys like "/uploads/abc/"; strip the slashes.
        Some(k) => k.trim_matches('/').to_owned(),
        None => return Response::status(400),
    };
    let sk = match idem_scope::scoped(&channel.tenant_id, &channel.user_id, "media.ingest", &client_key) {
        Ok(k) => k,
        Err(e) => return Response::text(400, e.to_string()),
    };

    {
        let mut mc = api.cache.lock().await;
        if let Ok(prev) = mc.get(sk.storage_key()).await {
            return Response::bytes(200, prev);
        }
    }

    let file_name = req.query("file").unwrap_or("upload.bin");
    let job: IngestJob = match api.ingestor.enqueue(&channel.tenant_id, &object_path(&channel, file_name)).await {
        Ok(j) => j,
        Err(e) => return Response::text(502, e.to_string()),
    };
    let body = serde_json::to_vec(&job).unwrap_or_default();
    let _ = api.cache.lock().await.set(sk.storage_key(), &body, 86_400).await;
    Response::bytes(202, body)
}
