use idem_scope::{scoped, Problem};
use sha2::{Digest, Sha256};
use tonic::{Request, Response, Status};

use crate::pb::freight_server::Freight;
use crate::pb::{TenderReply, TenderRequest};
use crate::replay::TenderReplays;
use crate::tendering::Tendering;

pub struct FreightSvc {
    replays: TenderReplays,
    tendering: Tendering,
}

fn identity(req: &Request<TenderRequest>) -> Result<(String, String), Status> {
    let tenant = req
        .metadata()
        .get("x-tenant")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Status::unauthenticated("missing tenant"))?;
    let caller = req
        .extensions()
        .get::<crate::auth::Peer>()
        .map(|p| p.caller_id.clone())
        .ok_or_else(|| Status::unauthenticated("missing peer identity"))?;
    Ok((tenant.to_owned(), caller))
}

#[tonic::async_trait]
impl Freight for FreightSvc {
    async fn tender(&self, request: Request<TenderRequest>) -> Result<Response<TenderReply>, Status> {
        let (tenant, caller) = identity(&request)?;
        let msg = request.into_inner();

        let mut h = Sha256::new();
        h.update(msg.load_id.as_bytes());
        h.update(msg.carrier_scac.as_bytes());
        h.update(msg.rate_cents.to_be_bytes());
        h.update(msg.pickup_window_start.to_be_bytes());
        let digest = h.finalize();

        let key = scoped(&tenant, &caller, "Freight/Tender", &hex::encode(digest)).map_err(|e| Status::invalid_argument(Problem::invalid_key(&e.to_string()).to_json()))?;
        if let Some(reply) = self.replays.get(&key).await.map_err(|e| Status::unavailable(e.to_string()))? {
            return Ok(Response::new(reply));
        }
        let reply = self
            .tendering
            .tender(&tenant, &msg.load_id, &msg.carrier_scac, msg.rate_cents)
            .await
            .map_err(|e| Status::failed_precondition(e.to_string()))?;
        self.replays
            .put(&key, &reply)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))?;
        Ok(Response::new(reply))
    }
}
