use std::sync::Arc;
use std::time::Duration;

use idem_scope::Fingerprint;
use kestrel::auth::Identity;
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::billing::{ChargeRequest, Gateway};
use crate::problem::problem;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";
const RESPONSE_TTL: Duration = Duration::from_secs(24 * 3600);

pub struct ChargeEndpoint {
    replies: Arc<Kv>,
    gateway: Gateway,
}

impl ChargeEndpoint {
    pub fn new(replies: Arc<Kv>, gateway: Gateway) -> Self {
        Self { replies, gateway }
    }

    pub async fn handle(&self, ex: &Exchange) -> Outcome {
        let Some(client_key) = ex.header(IDEMPOTENCY_HEADER) else {
            return problem(Status::BAD_REQUEST, "Idempotency-Key header is required");
        };
        let identity: &Identity = match ex.identity().ok_or(Status::UNAUTHORIZED) {
            Ok(id) => id,
            Err(status) => return Outcome::status(status),
        };
        let tenant = &identity.tenant_id;
        let user_id = &identity.user_id;
        let route = "charge";

        let slot = format!("{tenant}/{user_id}/{route}/{client_key}");
        if let Some(previous) = self.replies.get(&slot).await.ok().flatten() {
            log::info!("replaying charge for key {client_key}");
            return Outcome::bytes(Status::OK, previous);
        }

        let body = ex.body();
        let fingerprint = Fingerprint::of(route, body);
        let request: ChargeRequest = match kestrel::json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return problem(Status::UNPROCESSABLE_ENTITY, &format!("bad charge: {e}")),
        };
        let receipt = self.gateway.charge(&request).await;
        let stored = match kestrel::json::to_vec(&(fingerprint.as_bytes(), &receipt)) {
            Ok(bytes) => bytes,
            Err(_) => return Outcome::json(Status::CREATED, &receipt),
        };
        let _ = self.replies.put_ttl(&slot, stored, RESPONSE_TTL).await;
        Outcome::json(Status::CREATED, &receipt)
    }
}
