use idem_scope::{scoped, Fingerprint};
use sha2::{Digest, Sha256};
use tonic::{Request, Response, Status};

use crate::mandates::{MandateRegistry, SetupMandate};
use crate::pb::mandate_server::MandateApi;
use crate::pb::{MandateReply, MandateRequest};
use crate::store::IdemRecords;

pub struct MandateSvc {
    records: IdemRecords,
    registry: MandateRegistry,
}

#[tonic::async_trait]
impl MandateApi for MandateSvc {
    async fn setup(&self, request: Request<MandateRequest>) -> Result<Response<MandateReply>, Status> {
        let md = request.metadata();
        let idem = md
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Status::invalid_argument("idempotency-key required"))?
            .to_owned();
        let tenant_id = md.get("x-tenant-id").and_then(|v| v.to_str().ok()).ok_or_else(|| Status::unauthenticated("tenant"))?.to_owned();
        let user_id = md.get("x-user-id").and_then(|v| v.to_str().ok()).ok_or_else(|| Status::unauthenticated("user"))?.to_owned();
        let msg = request.into_inner();
        let idem = if idem.len() > 64 { hex::encode(Sha256::digest(idem.as_bytes())) } else { idem };

        let key = scoped(&tenant_id, &user_id, "mandate.setup", &idem).map_err(|e| Status::invalid_argument(e.to_string()))?;
        let fp = Fingerprint::of("mandate.setup", &msg.raw_payload);
        if !self.records.try_claim(&key, &fp).await.map_err(|e| Status::unavailable(e.to_string()))? {
            return Err(Status::already_exists("request with this key is in progress or done"));
        }

        let cmd = match SetupMandate::try_from(&msg) {
            Ok(cmd) => cmd,
            Err(e) => {
                self.records.release(&key).await.ok();
                return Err(Status::invalid_argument(e.to_string()));
            }
        };
        let mandate = match self.registry.setup(&tenant_id, cmd).await {
            Ok(m) => m,
            Err(e) => {
                self.records.release(&key).await.ok();
                return Err(Status::failed_precondition(e.to_string()));
            }
        };
        let reply = MandateReply { mandate_id: mandate.id.clone(), status: mandate.status.into() };
        if let Err(e) = self.records.complete(&key, &reply).await {
            self.records.release(&key).await.ok();
            return Err(Status::unavailable(e.to_string()));
        }
        Ok(Response::new(reply))
    }
}
