use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::mdm::{Enrollment, MdmClient};

#[derive(Deserialize)]
pub struct EnrollBody {
    pub serial: String,
    pub model: String,
    pub mac: String,
}

#[derive(Default)]
pub struct EnrollDefaults {
    pub profile: String,
    pub retries: u8,
}

pub struct EnrollApi {
    kv: Arc<Kv>,
    mdm: Arc<MdmClient>,
    defaults: EnrollDefaults,
}

impl EnrollApi {
    pub fn new(kv: Arc<Kv>, mdm: Arc<MdmClient>) -> Self {
        Self { kv, mdm, defaults: Default::default() }
    }

    pub async fn enroll(&self, head: Head, Json(body): Json<EnrollBody>) -> Outcome {
        let Some(user_id) = head.identity().map(|i| i.user_id.clone()) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let org_id: String = match head.identity().and_then(|i| i.org_id.clone()) {
            Some(org) => org,
            None => Default::default(),
        };
        let mac = body.mac.replace(':', "").to_ascii_lowercase();
        let Some(retry) = head.header_str("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&org_id, &user_id, "enroll_device", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let enrollment: Enrollment = self.mdm.enroll(&org_id, &body.serial, &body.model, &mac, &self.defaults.profile).await;
        let bytes = kestrel::json::to_vec(&enrollment).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
