use crc::{Crc, CRC_32_ISCSI};
use ferrum::kv::SharedKv;
use idem_scope::scoped;
use keystone::PartnerIdentity;
use relay::http::{Request, Response, StatusCode};

static CASTAGNOLI: Crc<u32> = Crc::<u32>::new(&CRC_32_ISCSI);

pub struct PartnerFeed {
    replay: SharedKv,
    chunks: chunk_store::Store,
    orders: orders::Client,
}

impl PartnerFeed {
    pub async fn upload_chunk(&self, partner: &PartnerIdentity, req: Request) -> Response {
        let declared = req.header_str("x-chunk-crc32c").and_then(|v| v.parse::<u32>().ok());
        let upload_id = req.path_param("upload_id").unwrap_or_default().to_owned();
        let bytes = req.body_bytes().await;
        let actual = CASTAGNOLI.checksum(&bytes);
        if declared != Some(actual) {
            return Response::status(StatusCode::UNPROCESSABLE_ENTITY);
        }
        self.chunks.append(&partner.tenant_id, &upload_id, &bytes).await;
        Response::status(StatusCode::NO_CONTENT)
    }

    pub async fn submit_orders(&self, partner: &PartnerIdentity, req: Request) -> Response {
        let payload = req.body_bytes().await;
        let crc = CASTAGNOLI.checksum(&payload);
        let sk = match scoped(&partner.tenant_id, &partner.client_id, "partner.orders", &crc.to_string()) {
            Ok(sk) => sk,
            Err(e) => return Response::problem(StatusCode::BAD_REQUEST, &e.to_string()),
        };
        if let Ok(Some(prev)) = self.replay.get(sk.storage_key()).await {
            return Response::json(StatusCode::OK, prev);
        }
        let accepted = match self.orders.ingest(&partner.tenant_id, &payload).await {
            Ok(a) => a,
            Err(e) => return Response::problem(StatusCode::BAD_GATEWAY, &e.to_string()),
        };
        let out = serde_json::to_vec(&accepted).unwrap_or_default();
        let _ = self.replay.put(sk.storage_key(), &out).await;
        Response::json(StatusCode::ACCEPTED, out)
    }
}
