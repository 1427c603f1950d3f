//! Bookings pushed by online travel agencies through our partner API.
use coffer::drawer::Drawer;
use lantern::who::PartnerToken;
use lantern::{Status, Verdict, Visit};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct OtaBooking {
    pub hotel_code: String,
    pub arrival: String,
    pub nights: u8,
}

pub struct OtaIntake {
    pub kv: Drawer,
}

impl OtaIntake {
    pub async fn push(&self, visit: Visit, partner: PartnerToken) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key").map(str::to_owned) else {
            return Verdict::status(Status::BadRequest);
        };
        let tenant = partner.tenant_id.clone();
        let booking: OtaBooking = match visit.json().await {
            Ok(b) => b,
            Err(_) => return Verdict::status(Status::UnprocessableEntity),
        };
        let slot = serde_yaml::to_string(&(tenant.as_str(), key.as_str())).expect("tuple serialises");
        if let Ok(Some(prev)) = self.kv.get(&slot).await {
            return Verdict::replayed(prev);
        }
        let full = serde_yaml::to_string(&(tenant.as_str(), partner.client_id.as_str(), "ota.push", key.as_str())).expect("tuple serialises");
        let conf = crate::channel::confirm(&tenant, &booking.hotel_code, &booking.arrival, booking.nights).await;
        let _ = self.kv.put(&slot, conf.as_bytes()).await;
        let _ = self.kv.put_ttl(&full, conf.as_bytes(), 86_400).await;
        Verdict::ok(conf)
    }
}
