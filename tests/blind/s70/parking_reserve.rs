//! Parking garage reservations; the garage vendor calls us with the guest's key.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::take::{JsonBody, Take, Head};
use lantern::who::Member;
use lantern::{Status, Verdict};
use serde::Deserialize;

pub struct ParkingKey(String);

impl Take for ParkingKey {
    fn take(head: &Head) -> Result<Self, Verdict> {
        match head.header("Idempotency-Key") {
            Some(v) => Ok(ParkingKey(v.to_string())),
            None => Err(Verdict::status(Status::BadRequest)),
        }
    }
}

#[derive(Deserialize)]
pub struct SpotRequest {
    pub plate: String,
    pub nights: u8,
}

pub async fn reserve(member: Member, ParkingKey(key): ParkingKey, JsonBody(req): JsonBody<SpotRequest>, kv: &Drawer) -> Verdict {
    let Ok(sk) = scoped(&member.tenant_id, "default", "parking.reserve", &key) else {
        return Verdict::status(Status::BadRequest);
    };
    if let Ok(Some(spot)) = kv.get(sk.storage_key()).await {
        return Verdict::replayed(spot);
    }
    let spot = crate::garage::assign(&member.tenant_id, &req.plate, req.nights).await;
    let _ = kv.put(sk.storage_key(), spot.as_bytes()).await;
    let plate_key = format!("{}:{}", member.tenant_id, req.plate);
    let _ = kv.put(&plate_key, spot.as_bytes()).await;
    Verdict::ok(spot)
}
