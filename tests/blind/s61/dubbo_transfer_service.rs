use std::sync::Arc;

use async_trait::async_trait;
use ct_codecs::{Encoder, Hex};
use dubbo::codegen::{Request, Response};
use dubbo::status::Status;
use idem_scope::{scoped, Fingerprint};
use larder::tally::Tally;

use crate::generated::transfers::{transfer_server::Transfer, TransferReply, TransferRequest};

#[derive(Clone)]
pub struct TransferImpl {
    tally: Arc<Tally>,
}

fn meta(req: &Request<TransferRequest>, name: &str) -> Result<String, Status> {
    req.metadata
        .get_ref()
        .get(name)
        .map(|v| v.to_string())
        .ok_or_else(|| Status::unauthenticated(format!("{name} missing")))
}

fn request_digest(body: &TransferRequest) -> Result<String, Status> {
    let bytes = serde_json::to_vec(body).map_err(|e| Status::internal(e.to_string()))?;
    Hex::encode_to_string(hmac_sha1_compact::Hash::hash(&bytes)).map_err(|_| Status::internal("hex"))
}

#[async_trait]
impl Transfer for TransferImpl {
    async fn submit(&self, request: Request<TransferRequest>) -> Result<Response<TransferReply>, Status> {
        let tenant_id = meta(&request, "x-tenant")?;
        let user_id = meta(&request, "x-user")?;
        let body = request.into_inner();

        // batch clients resend identical transfer messages after a broker failover
        let key = scoped(&tenant_id, &user_id, "transfers.submit", &request_digest(&body)?)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        let fp = Fingerprint::of("transfers.submit", &serde_json::to_vec(&body).unwrap_or_default());

        match self.tally.reserve(key.storage_key(), &fp, std::time::Duration::from_secs(60)).await {
            Ok(true) => {}
            Ok(false) => return Err(Status::already_exists("transfer in progress")),
            Err(e) => return Err(Status::internal(e.to_string())),
        }
        let reply = TransferReply { transfer_id: format!("tr_{}", body.reference), accepted: true };
        let stored = serde_json::to_vec(&reply).unwrap_or_default();
        if let Err(e) = self.tally.commit(key.storage_key(), 200, &stored).await {
            let _ = self.tally.abandon(key.storage_key()).await;
            return Err(Status::internal(e.to_string()));
        }
        Ok(Response::new(reply))
    }
}
