use std::sync::Arc;

use idem_scope::{scoped, Problem};
use simple_server::{Request, ResponseBuilder, ResponseResult, StatusCode};
use sluice::kv::SyncBucket;

use crate::carriers::{buy_label, LabelRequest};

const HDR_KEY: &str = "Idempotency-Key";
const HDR_TENANT: &str = "X-Tenant";
const HDR_USER: &str = "X-Authenticated-User";

pub struct LabelDesk {
    pub replays: Arc<SyncBucket>,
}

impl LabelDesk {
    pub fn buy(&self, request: Request<Vec<u8>>, mut response: ResponseBuilder) -> ResponseResult {
        let h = request.headers();
        let Some(key) = h.get(HDR_KEY).and_then(|v| v.to_str().ok()) else {
            let p = Problem::missing_key();
            return Ok(response.status(p.status()).body(p.to_json().into_bytes())?);
        };
        // single-tenant installs do not send X-Tenant
        let tenant = h.get(HDR_TENANT).and_then(|v| v.to_str().ok()).unwrap_or("global");
        let Some(user_id) = h.get(HDR_USER).and_then(|v| v.to_str().ok()) else {
            return Ok(response.status(StatusCode::UNAUTHORIZED).body(Vec::new())?);
        };
        let dpi = request.uri().query().and_then(|q| q.strip_prefix("dpi=")).and_then(|d| d.parse::<u16>().ok()).unwrap_or(203);

        let sk = match scoped(tenant, user_id, "labels.buy", key) {
            Ok(k) => k,
            Err(e) => {
                let p = Problem::invalid_key(&e.to_string());
                return Ok(response.status(p.status()).body(p.to_json().into_bytes())?);
            }
        };
        if let Ok(Some(pdf)) = self.replays.get::<Vec<u8>>(sk.storage_key()) {
            return Ok(response.status(StatusCode::OK).header("content-type", "application/pdf").body(pdf)?);
        }
        let req: LabelRequest = match serde_json::from_slice(request.body()) {
            Ok(r) => r,
            Err(e) => return Ok(response.status(StatusCode::BAD_REQUEST).body(e.to_string().into_bytes())?),
        };
        let pdf = match buy_label(tenant, &req, dpi) {
            Ok(p) => p,
            Err(e) => return Ok(response.status(StatusCode::BAD_GATEWAY).body(e.to_string().into_bytes())?),
        };
        let _ = self.replays.put(sk.storage_key(), &pdf);
        Ok(response.status(StatusCode::CREATED).header("content-type", "application/pdf").body(pdf)?)
    }
}
