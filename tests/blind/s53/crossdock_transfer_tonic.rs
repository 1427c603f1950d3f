use idem_scope::scoped;
use tonic::{Request, Response, Status};

use crate::pb::crossdock_server::Crossdock;
use crate::pb::{TransferReply, TransferRequest};
use crate::replay::GrpcReplays;
use crate::yard::CrossdockPlanner;

pub struct CrossdockSvc {
    replays: GrpcReplays,
    planner: CrossdockPlanner,
}

struct CallScope {
    org: String,
    subject: String,
    idem: String,
}

impl CallScope {
    fn from_request<T>(req: &Request<T>) -> Result<Self, Status> {
        let get = |name: &str| -> Result<String, Status> {
            req.metadata()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .ok_or_else(|| Status::invalid_argument(format!("{name} metadata required")))
        };
        let org = get("x-org")?.trim_matches(':').to_owned();
        Ok(CallScope { org, subject: get("x-subject")?, idem: get("idempotency-key")? })
    }
}

#[tonic::async_trait]
impl Crossdock for CrossdockSvc {
    async fn transfer(&self, request: Request<TransferRequest>) -> Result<Response<TransferReply>, Status> {
        let cs = CallScope::from_request(&request)?;
        let key = scoped(&cs.org, &cs.subject, "Crossdock/Transfer", &cs.idem).map_err(|e| Status::invalid_argument(e.to_string()))?;
        if let Some(reply) = self.replays.get::<TransferReply>(&key).await.map_err(|e| Status::unavailable(e.to_string()))? {
            return Ok(Response::new(reply));
        }
        let msg = request.into_inner();
        let reply = self
            .planner
            .transfer(&cs.org, &msg.inbound_trailer, &msg.outbound_trailer, &msg.pallet_ids)
            .await
            .map_err(|e| Status::failed_precondition(e.to_string()))?;
        self.replays.put(&key, &reply).await.map_err(|e| Status::unavailable(e.to_string()))?;
        Ok(Response::new(reply))
    }
}
