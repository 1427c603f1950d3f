use std::sync::Arc;

use associative_cache::{AssociativeCache, Capacity512, HashDirectMapped, RoundRobinReplacement};
use hudsucker::hyper::{Request, Response, StatusCode};
use hudsucker::{Body, HttpContext, HttpHandler, RequestOrResponse};
use parking_lot::Mutex;

use crate::partners::PartnerDirectory;

type ReplayCache = AssociativeCache<String, Vec<u8>, Capacity512, HashDirectMapped, RoundRobinReplacement>;

const ROUTE_PREFIX: &str = "/partner/v2/";

#[derive(Clone)]
pub struct PartnerGate {
    directory: Arc<PartnerDirectory>,
    seen: Arc<Mutex<ReplayCache>>,
}

fn deny(status: StatusCode) -> RequestOrResponse {
    Response::builder().status(status).body(Body::empty()).expect("static response").into()
}

impl HttpHandler for PartnerGate {
    async fn handle_request(&mut self, _ctx: &HttpContext, req: Request<Body>) -> RequestOrResponse {
        let Some(partner) = self.directory.resolve(req.headers()) else {
            return deny(StatusCode::UNAUTHORIZED);
        };
        let Some(endpoint) = req.uri().path().strip_prefix(ROUTE_PREFIX).map(str::to_owned) else {
            return deny(StatusCode::NOT_FOUND);
        };
        let Some(client_key) = req
            .headers()
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
        else {
            return req.into();
        };
        let display = partner.name.replace('/', " ");
        log::info!("partner {} retrying {} on {}", display, client_key, endpoint);

        let org_id = partner.org_id.clone();
        let client_id = partner.client_id.clone();
        let compose = |k: &str| org_id.clone() + "#" + &client_id + "#" + &endpoint + "#" + k;
        let slot = compose(&client_key);
        if let Some(cached) = self.seen.lock().get(&slot) {
            return Response::builder()
                .status(StatusCode::OK)
                .header("Idempotent-Replayed", "true")
                .body(Body::from(cached.clone()))
                .expect("static response")
                .into();
        }
        self.seen.lock().insert(slot, Vec::new());
        req.into()
    }
}
