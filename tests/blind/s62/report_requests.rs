use std::sync::Arc;

use idem_scope::{scoped, Problem};
use quarry::blob::BlobStore;
use quarry::kv::Vault;
use serde::{Deserialize, Serialize};
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Reply, Status};

#[derive(Serialize, Deserialize)]
pub struct ReportRequest {
    report: String,
    from: String,
    to: String,
    format: String,
}

pub struct Reports {
    replays: Arc<Vault>,
    blobs: Arc<BlobStore>,
    engine: reporting::Engine,
}

fn request_token(req: &ReportRequest) -> String {
    let bytes = serde_json::to_vec(req).expect("serialisable");
    chksum_sha1::chksum(bytes).expect("in-memory digest").to_hex_lowercase()
}

impl Reports {
    pub async fn generate(&self, caller: &Caller, Json(req): Json<ReportRequest>) -> Reply {
        let token = request_token(&req);
        let sk = match scoped(&caller.account_id, &caller.user_id, "reports.generate", &token) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(location)) = self.replays.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, location);
        }

        let pdf = match self.engine.render(&req.report, &req.from, &req.to, &req.format).await {
            Ok(pdf) => pdf,
            Err(e) => return Reply::text(Status::UNPROCESSABLE_ENTITY, e.to_string()),
        };
        let content_id = chksum_sha1::chksum(&pdf).expect("in-memory digest").to_hex_lowercase();
        let path = format!("reports/{}/{}.pdf", caller.account_id, content_id);
        if let Err(e) = self.blobs.put(&path, pdf).await {
            return Reply::text(Status::BAD_GATEWAY, e.to_string());
        }
        let _ = self.replays.put(sk.storage_key(), path.clone().into_bytes()).await;
        Reply::text(Status::CREATED, path)
    }
}
