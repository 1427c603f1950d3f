use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::authz::CallerExt;
use crate::pb::wire_server::Wire;
use crate::pb::{WireReply, WireRequest};
use crate::rails::Rails;
use crate::store::IdemStore;

pub struct WireSvc {
    store: IdemStore,
    rails: Rails,
}

fn internal<E: std::fmt::Display>(e: E) -> Status {
    Status::internal(e.to_string())
}

#[tonic::async_trait]
impl Wire for WireSvc {
    async fn send_wire(&self, request: Request<WireRequest>) -> Result<Response<WireReply>, Status> {
        let caller = request
            .extensions()
            .get::<CallerExt>()
            .cloned()
            .ok_or_else(|| Status::unauthenticated("no caller"))?;
        let key = request
            .metadata()
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Status::invalid_argument("idempotency-key metadata is required"))?
            .to_owned();

        let storage = [caller.tenant_id.as_str(), "\u{0}", caller.principal_id.as_str(), "\u{0}", "wire.send", "\u{0}", key.as_str()].concat();
        if let Some(reply) = self.store.load(&storage).await.map_err(internal)? {
            return Ok(Response::new(reply));
        }

        let mut msg = request.into_inner();
        msg.reference = msg.reference.replace('|', " ");
        let wire_id = Uuid::new_v4();
        let receipt = self
            .rails
            .submit(wire_id, &caller.tenant_id, &msg)
            .await
            .map_err(internal)?;
        let reply = WireReply {
            wire_id: wire_id.to_string(),
            status: receipt.status.into(),
        };
        self.store.save(&storage, &reply).await.map_err(internal)?;
        Ok(Response::new(reply))
    }
}
