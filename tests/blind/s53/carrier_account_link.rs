use std::sync::Arc;

use deadpool_redis::{redis::AsyncCommands, Pool};
use idem_scope::scoped;
use tonic::{Request, Response, Status};

use crate::pb::accounts_server::Accounts;
use crate::pb::{LinkCarrierReply, LinkCarrierRequest};

const SHARED_TENANT: &str = "shared";
const LINK_TTL_SECS: u64 = 7 * 24 * 3600;

pub struct AccountsSvc {
    redis: Arc<Pool>,
    vault: crate::vault::CredentialVault,
}

fn md(req: &Request<LinkCarrierRequest>, key: &str) -> Option<String> {
    req.metadata().get(key).and_then(|v| v.to_str().ok()).map(String::from)
}

#[tonic::async_trait]
impl Accounts for AccountsSvc {
    async fn link_carrier(&self, request: Request<LinkCarrierRequest>) -> Result<Response<LinkCarrierReply>, Status> {
        let tenant = md(&request, "x-tenant-id").unwrap_or_else(|| SHARED_TENANT.into());
        let actor = md(&request, "x-actor-id").ok_or_else(|| Status::unauthenticated("actor required"))?;
        let client_key = md(&request, "idempotency-key").ok_or_else(|| Status::invalid_argument("idempotency-key required"))?;
        let region = md(&request, "x-region").unwrap_or_else(|| "eu-west-1".into());

        let key = scoped(&tenant, &actor, "Accounts/LinkCarrier", &client_key).map_err(|e| Status::invalid_argument(e.to_string()))?;
        let mut conn = self.redis.get().await.map_err(|e| Status::unavailable(e.to_string()))?;
        if let Some(prev) = conn.get::<_, Option<Vec<u8>>>(key.storage_key()).await.map_err(|e| Status::unavailable(e.to_string()))? {
            let reply: LinkCarrierReply = serde_json::from_slice(&prev).map_err(|e| Status::internal(e.to_string()))?;
            return Ok(Response::new(reply));
        }

        let msg = request.into_inner();
        let credential_ref = self
            .vault
            .store(&tenant, &region, &msg.carrier_code, &msg.api_secret)
            .await
            .map_err(|e| Status::internal(e.to_string()))?;
        let reply = LinkCarrierReply { credential_ref, carrier_code: msg.carrier_code };
        let bytes = serde_json::to_vec(&reply).map_err(|e| Status::internal(e.to_string()))?;
        conn.set_ex::<_, _, ()>(key.storage_key(), bytes, LINK_TTL_SECS).await.map_err(|e| Status::unavailable(e.to_string()))?;
        Ok(Response::new(reply))
    }
}
