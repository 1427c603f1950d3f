use std::sync::Arc;

use idem_scope::{scoped, ScopedKey};
use ledgerkit::idem::OutcomeStore;
use volo_grpc::{Request, Response, Status};

use crate::gen::admin::{ClusterAdmin, ResizeRequest, ResizeResponse, RotateRequest, RotateResponse};

pub struct Admin {
    outcomes: Arc<OutcomeStore>,
    fleet: Arc<fleet::Controller>,
}

struct CallMeta {
    tenant_id: String,
    key: String,
}

fn call_meta<T>(req: &Request<T>) -> Result<CallMeta, Status> {
    let md = req.metadata();
    let tenant_id = md
        .get("x-tenant-id")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Status::unauthenticated("tenant required"))?
        .to_ascii_lowercase();
    let key = md
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| Status::invalid_argument("idempotency-key required"))?
        .to_owned();
    if key.contains('\0') || tenant_id.contains('\0') {
        return Err(Status::invalid_argument("NUL is not allowed in tenant or key"));
    }
    Ok(CallMeta { tenant_id, key })
}

impl Admin {
    fn service_key(&self, meta: &CallMeta, route: &str) -> Result<ScopedKey, Status> {
        scoped(&meta.tenant_id, "", route, &meta.key).map_err(|e| Status::invalid_argument(e.to_string()))
    }
}

impl ClusterAdmin for Admin {
    async fn resize(&self, req: Request<ResizeRequest>) -> Result<Response<ResizeResponse>, Status> {
        let meta = call_meta(&req)?;
        let sk = self.service_key(&meta, "ClusterAdmin/Resize")?;
        if let Some(done) = self.outcomes.load::<ResizeResponse>(&sk).await.map_err(|e| Status::internal(e.to_string()))? {
            return Ok(Response::new(done));
        }
        let spec = req.into_inner();
        let out = self.fleet.resize(&meta.tenant_id, &spec.cluster, spec.nodes).await.map_err(|e| Status::internal(e.to_string()))?;
        self.outcomes.save(&sk, &out).await.map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(out))
    }

    async fn rotate_credentials(&self, req: Request<RotateRequest>) -> Result<Response<RotateResponse>, Status> {
        let meta = call_meta(&req)?;
        let caller_id = req
            .metadata()
            .get("x-caller-id")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| Status::unauthenticated("caller required"))?
            .to_owned();
        if caller_id.contains(['\0', '\u{1e}']) {
            return Err(Status::invalid_argument("caller id contains a reserved character"));
        }
        let sk = scoped(&meta.tenant_id, &caller_id, "ClusterAdmin/RotateCredentials", &meta.key)
            .map_err(|e| Status::invalid_argument(e.to_string()))?;
        if let Some(done) = self.outcomes.load::<RotateResponse>(&sk).await.map_err(|e| Status::internal(e.to_string()))? {
            return Ok(Response::new(done));
        }
        let out = self.fleet.rotate(&meta.tenant_id, &req.into_inner().cluster).await.map_err(|e| Status::internal(e.to_string()))?;
        self.outcomes.save(&sk, &out).await.map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(out))
    }
}
