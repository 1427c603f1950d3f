use std::fmt;

use actix_web::{web, HttpRequest, HttpResponse};
use idem_scope::{scoped, Problem};
use sha2::{Digest, Sha256};

use crate::pod::{PodArchive, ProofOfDelivery};
use crate::replay::PodReplays;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    Driver { driver_id: String },
    Dispatcher { user_id: String },
    Anonymous,
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Principal::Driver { driver_id } => write!(f, "drv_{driver_id}"),
            Principal::Dispatcher { user_id } => write!(f, "usr_{user_id}"),
            Principal::Anonymous => f.write_str("-"),
        }
    }
}

#[derive(Clone)]
pub struct CarrierCtx {
    pub org_id: String,
    pub principal: Option<Principal>,
}

pub async fn upload_pod(
    req: HttpRequest,
    ctx: web::ReqData<CarrierCtx>,
    pod: web::Json<ProofOfDelivery>,
    replays: web::Data<PodReplays>,
    archive: web::Data<PodArchive>,
) -> HttpResponse {
    let Some(client_key) = req.headers().get("Idempotency-Key").and_then(|h| h.to_str().ok()) else {
        return HttpResponse::BadRequest().content_type(idem_scope::PROBLEM_CONTENT_TYPE).body(Problem::missing_key().to_json());
    };
    let principal = ctx.principal.clone().unwrap_or(Principal::Anonymous);
    let key = match scoped(&ctx.org_id, &principal.to_string(), "pod.upload", client_key) {
        Ok(k) => k,
        Err(e) => return HttpResponse::BadRequest().body(Problem::invalid_key(&e.to_string()).to_json()),
    };
    if let Some(prev) = replays.get(&key).await {
        return HttpResponse::Ok().json(prev);
    }
    let signature_sha = hex::encode(Sha256::digest(&pod.signature_png));
    let stored = match archive.store(&ctx.org_id, &pod.shipment_id, &pod.signature_png, &signature_sha).await {
        Ok(s) => s,
        Err(e) => return HttpResponse::BadGateway().body(e.to_string()),
    };
    replays.put(&key, &stored).await;
    HttpResponse::Created().json(stored)
}
