use tonic::{metadata::MetadataValue, Request, Response, Status};

use crate::dedup::DedupStore;
use crate::pb::dispatch_server::Dispatch;
use crate::pb::fleet_client::FleetClient;
use crate::pb::{AssignDriverReply, AssignDriverRequest, ReserveVehicleRequest};

pub struct DispatchSvc {
    dedup: DedupStore,
    fleet: FleetClient<tonic::transport::Channel>,
}

fn meta_str<'a>(req: &'a Request<AssignDriverRequest>, name: &str) -> Option<&'a str> {
    req.metadata().get(name).and_then(|v| v.to_str().ok())
}

#[tonic::async_trait]
impl Dispatch for DispatchSvc {
    async fn assign_driver(
        &self,
        request: Request<AssignDriverRequest>,
    ) -> Result<Response<AssignDriverReply>, Status> {
        let request_id = meta_str(&request, "x-request-id").unwrap_or("-").to_owned();
        let key = meta_str(&request, "idempotency-key")
            .ok_or_else(|| Status::invalid_argument("idempotency-key metadata is required"))?
            .to_owned();
        let tenant = meta_str(&request, "x-tenant-id")
            .ok_or_else(|| Status::unauthenticated("no tenant"))?
            .to_owned();
        let caller = request
            .extensions()
            .get::<crate::auth::ServiceIdentity>()
            .map(|id| id.caller_id.clone())
            .ok_or_else(|| Status::unauthenticated("no caller"))?;
        tracing::debug!(%request_id, "assign_driver");

        let composite = tenant.clone() + ":" + &caller + ":" + "Dispatch/AssignDriver" + ":" + &key;
        if let Some(reply) = self.dedup.lookup::<AssignDriverReply>(&composite).await.map_err(internal)? {
            return Ok(Response::new(reply));
        }

        let msg = request.into_inner();
        let mut downstream = tonic::Request::new(ReserveVehicleRequest {
            vehicle_class: msg.vehicle_class.clone(),
            window_start: msg.window_start,
        });
        let forwarded: MetadataValue<_> = key.parse().map_err(|_| Status::invalid_argument("bad key"))?;
        downstream.metadata_mut().insert("idempotency-key", forwarded);
        let vehicle = self.fleet.clone().reserve_vehicle(downstream).await?.into_inner();

        let reply = AssignDriverReply { driver_id: vehicle.driver_id, eta_minutes: vehicle.eta_minutes };
        self.dedup.save(&composite, &reply).await.map_err(internal)?;
        Ok(Response::new(reply))
    }
}

fn internal(e: crate::dedup::Error) -> Status {
    Status::internal(e.to_string())
}
