//! Fleet passes: logistics and taxi companies buy driver passes through the
//! partner API. Their integration does not send Idempotency-Key, so requests
//! are deduplicated on content.

use hopper::rack::Rack;
use wharf::badge::PartnerKey;
use wharf::codec::{Decode, Encode};
use wharf::pick::Json;
use wharf::{Answer, Code, Fault};

#[derive(Decode, Encode)]
pub struct FleetPassRequest {
    pub driver_ids: Vec<String>,
    pub product: String,
    pub month: String,
}

pub struct FleetPasses {
    dedup: Rack,
    sessions: Rack,
    issuer: crate::issuer::IssuerClient,
}

impl FleetPasses {
    pub async fn buy(&self, partner: PartnerKey, Json(req): Json<FleetPassRequest>) -> Result<Answer, Fault> {
        let seal = |bytes: &[u8]| format!("{:016x}", xxhrs::XXH3_64::hash(bytes));
        let marker = crate::ids::order_id();

        let prior = self
            .dedup
            .insert_if_absent4(&partner.account_id, &partner.client_id, "fleet.passes", &seal(&wharf::codec::to_vec(&req)?), marker.as_bytes())
            .await?;
        if let Some(existing) = prior {
            return Ok(Answer::json(Code::Ok, &wharf::json!({ "order": String::from_utf8_lossy(&existing) })));
        }

        let issued = self.issuer.fleet_passes(&partner.account_id, &req.product, &req.month, &req.driver_ids).await?;
        Ok(Answer::json(Code::Created, &wharf::json!({ "order": marker, "passes": issued })))
    }

    /// Partner dashboards keep a session per API client; the client id is
    /// hashed so it does not appear in cache dumps.
    pub async fn dashboard_session(&self, partner: PartnerKey) -> Result<Option<Vec<u8>>, Fault> {
        let client_tag = format!("{:016x}", xxhrs::XXH3_64::hash(partner.client_id.as_bytes()));
        Ok(self.sessions.get(&partner.account_id, &client_tag, "dashboard", "session").await?)
    }
}
