use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{info, Logger};

use crate::fleet::{EnrollRequest, Fleet};
use crate::pki::PeerCert;

pub struct Enrollment {
    stash: Arc<Stash>,
    fleet: Arc<Fleet>,
    log: Logger,
}

impl Enrollment {
    pub async fn enroll(&self, call: Call, cert: Option<PeerCert>) -> Answer {
        let Some(tenant_id) = call.identity().map(|w| w.tenant_id.clone()) else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let caller_id = if let Some(c) = cert.as_ref().and_then(|c| c.common_name()) {
            c.to_owned()
        } else {
            "unknown".to_owned()
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        info!(self.log, "enroll attempt"; "tenant" => &tenant_id, "caller" => &caller_id);

        let slot = match scoped(&tenant_id, &caller_id, "device_enroll", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(req) = call.json::<EnrollRequest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let model = req.model.clone().unwrap_or_else(|| "generic".to_owned());
        match self.fleet.enroll(&tenant_id, &req.serial, &model).await {
            Ok(device) => {
                let body = device.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
