use std::sync::Arc;
use std::time::Duration;

use idem_scope::{ClaimGuard, Fingerprint};
use serde::{Deserialize, Serialize};
use streebog::{Digest, Streebog256};

use corvid::Json;

use crate::bookings::{Booking, Calendar};
use crate::kv::ClaimStore;

#[derive(Deserialize, Serialize)]
pub struct BookingRequest {
    pub room_id: String,
    pub starts_at: i64,
    pub ends_at: i64,
    pub attendees: Vec<String>,
}

pub struct BookingDesk {
    claims: Arc<ClaimStore>,
    calendar: Calendar,
}

impl BookingDesk {
    pub async fn book(&self, tenant_id: &str, user_id: &str, Json(req): Json<BookingRequest>) -> eyre::Result<Booking> {
        let canonical = serde_json::to_vec(&req)?;
        let request_digest = hex_simd::encode_to_string(Streebog256::digest(&canonical), hex_simd::AsciiCase::Lower);
        let key = idem_scope::scoped(tenant_id, user_id, "bookings.create", &request_digest)?;
        let fp = Fingerprint::of("bookings.create", &canonical);

        let claims = self.claims.clone();
        let release_key = key.clone();
        self.claims.claim(&key, &fp, Duration::from_secs(120)).await?;
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = claims.release(&release_key).await;
            });
        });

        let booking = self.calendar.reserve(tenant_id, &req.room_id, req.starts_at, req.ends_at).await?;
        self.calendar.invite(&booking, &req.attendees).await?;
        self.claims.complete(&key, &serde_json::to_vec(&booking)?, Duration::from_secs(86_400)).await?;
        guard.complete();
        Ok(booking)
    }
}
