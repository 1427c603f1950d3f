use std::time::Duration;

use bonsaidb::core::keyvalue::AsyncKeyValue;
use bonsaidb::local::AsyncDatabase;
use idem_scope::{scoped, Fingerprint, Problem, Record};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct TokenClaims {
    pub org_id: String,
    pub sub: String,
}

#[derive(Serialize, Deserialize)]
struct Enrolled {
    fingerprint: [u8; 32],
    device_id: String,
}

pub struct Enrollment {
    db: AsyncDatabase,
    mdm: crate::mdm::Client,
}

impl Enrollment {
    pub async fn enroll(&self, claims: &TokenClaims, headers: &http::HeaderMap, body: &[u8]) -> Result<String, Problem> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        let principal: String = claims.sub.chars().filter(|c| *c != '\u{1e}').collect();
        let sk = scoped(&claims.org_id, &principal, "devices.enroll", key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fingerprint = Fingerprint::of("devices.enroll", body);

        let previous: Option<Enrolled> = self
            .db
            .get_key(sk.storage_key())
            .into()
            .await
            .map_err(|_| Problem::in_progress(key))?;
        if let Some(prev) = previous {
            if &prev.fingerprint != fingerprint.as_bytes() {
                return Err(Problem::mismatch(key));
            }
            return Ok(prev.device_id);
        }

        let device_id = self.mdm.enroll(&claims.org_id, body).await.map_err(|_| Problem::in_progress(key))?;
        let record = Enrolled { fingerprint: *fingerprint.as_bytes(), device_id: device_id.clone() };
        self.db
            .set_key(sk.storage_key(), &record)
            .expire_in(Duration::from_secs(86_400))
            .await
            .map_err(|_| Problem::in_progress(key))?;
        Ok(device_id)
    }
}
