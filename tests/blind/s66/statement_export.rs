#![allow(deprecated)]

use std::hash::{Hasher, SipHasher};
use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::statements::{ExportSpec, Exporter};

const EXPORT_SALT: (u64, u64) = (0x5f3a_9c11_0be4_27d1, 0x0d17_e6a2_43b8_9f05);

fn body_digest(body: &[u8]) -> String {
    let mut h = SipHasher::new_with_keys(EXPORT_SALT.0, EXPORT_SALT.1);
    h.write(body);
    format!("{:016x}", h.finish())
}

pub struct StatementExports {
    replays: Arc<Stash>,
    exporter: Arc<Exporter>,
}

impl StatementExports {
    /// Statement exports are expensive; identical requests are served once.
    pub async fn request(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let spec: ExportSpec = match call.json() {
            Ok(s) => s,
            Err(_) => return Answer::status(Code::BAD_REQUEST),
        };
        if spec.months > 24 {
            return Answer::problem(Problem::invalid_key("at most 24 months per export"));
        }

        let digest = body_digest(call.body());
        let slot = match scoped(&who.tenant_id, &who.user_id, "statement_export", &digest) {
            Ok(k) => k,
            Err(e) => return Answer::text(Code::INTERNAL_SERVER_ERROR, &e.to_string()),
        };

        if let Ok(Some(job)) = self.replays.get(slot.storage_key()).await {
            return Answer::bytes(Code::ACCEPTED, job);
        }
        let job_ref = match self.exporter.enqueue(&who.tenant_id, &who.user_id, spec).await {
            Ok(j) => j,
            Err(e) => return Answer::text(Code::SERVICE_UNAVAILABLE, &e.to_string()),
        };
        let body = format!("{{\"job\":\"{}\"}}", job_ref.id).into_bytes();
        let _ = self.replays.put_ttl(slot.storage_key(), &body, 3600).await;
        Answer::bytes(Code::ACCEPTED, body)
    }

    pub async fn status(&self, call: Call, job_id: &str) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        match self.exporter.status(&who.tenant_id, job_id).await {
            Ok(s) => Answer::text(Code::OK, &s.to_string()),
            Err(_) => Answer::status(Code::NOT_FOUND),
        }
    }
}
