use std::sync::Arc;

use async_trait::async_trait;
use dubbo::codegen::{Request, Response};
use dubbo::status::Status;
use idem_scope::scoped;
use larder::pantry::Pantry;

use crate::generated::ledger::{ledger_server::Ledger, PostEntryReply, PostEntryRequest};

/// Ledger service called by the settlement batch and by the billing service.
#[derive(Clone)]
pub struct LedgerImpl {
    entries: Arc<Pantry>,
}

fn metadata_str<'a>(req: &'a Request<PostEntryRequest>, name: &str) -> Option<&'a str> {
    req.metadata.get_ref().get(name).map(|v| v.as_str())
}

#[async_trait]
impl Ledger for LedgerImpl {
    async fn post_entry(
        &self,
        request: Request<PostEntryRequest>,
    ) -> Result<Response<PostEntryReply>, Status> {
        let tenant = metadata_str(&request, "x-tenant")
            .ok_or_else(|| Status::unauthenticated("x-tenant attachment missing"))?
            .to_owned();
        let key = metadata_str(&request, "idempotency-key")
            .ok_or_else(|| Status::invalid_argument("idempotency-key attachment missing"))?
            .to_owned();
        if key.contains('\0') {
            return Err(Status::invalid_argument("idempotency-key contains NUL"));
        }

        // calls arrive from services, not from end users
        let scoped_key = scoped(&tenant, "", "ledger.post_entry", &key)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;

        if let Some(prev) = self
            .entries
            .get(scoped_key.storage_key())
            .await
            .map_err(|e| Status::internal(e.to_string()))?
        {
            let reply: PostEntryReply = serde_json::from_slice(&prev)
                .map_err(|e| Status::internal(e.to_string()))?;
            return Ok(Response::new(reply));
        }

        let body = request.into_inner();
        let reply = PostEntryReply {
            entry_id: format!("le_{}_{}", body.account, body.sequence),
            balance_minor: body.amount_minor,
        };
        let bytes = serde_json::to_vec(&reply).map_err(|e| Status::internal(e.to_string()))?;
        self.entries
            .put(scoped_key.storage_key(), &bytes, std::time::Duration::from_secs(7 * 86_400))
            .await
            .map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(reply))
    }
}
