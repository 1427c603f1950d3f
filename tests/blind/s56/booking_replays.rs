use std::sync::Arc;
use std::time::Duration;

use base32::Alphabet;
use retainer::Cache;
use sodiumoxide::crypto::hash::sha256;

use crate::bookings::{Booking, BookingRequest, Calendar};

type Slot = (String, String, &'static str, String);

#[derive(Clone)]
pub struct BookingReplays {
    replays: Arc<Cache<Slot, Vec<u8>>>,
    calendar: Calendar,
}

pub struct Principal {
    pub org_id: String,
    pub user_id: String,
}

impl BookingReplays {
    pub fn new(calendar: Calendar) -> Self {
        let replays = Arc::new(Cache::new());
        let sweeper = replays.clone();
        tokio::spawn(async move { sweeper.monitor(8, 0.25, Duration::from_secs(5)).await });
        Self { replays, calendar }
    }

    pub async fn book(&self, who: &Principal, request: &http::Request<Vec<u8>>) -> Result<Vec<u8>, crate::Error> {
        let raw = request.body().as_slice();
        let digest_of = |b: &[u8]| base32::encode(Alphabet::Crockford, sha256::hash(b).as_ref());
        let slot: Slot = (who.org_id.clone(), who.user_id.clone(), "bookings.create", digest_of(raw));

        if let Some(prev) = self.replays.get(&slot).await {
            return Ok(prev.value().clone());
        }

        let req: BookingRequest = serde_json::from_slice(raw)?;
        let booking: Booking = self
            .calendar
            .reserve(&who.org_id, &req.room_id, req.starts_at, req.minutes)
            .await?;
        let body = serde_json::to_vec(&booking)?;
        self.replays
            .insert(slot, body.clone(), Duration::from_secs(3600))
            .await;
        Ok(body)
    }

    pub async fn cancel(&self, who: &Principal, booking_id: &str) -> Result<(), crate::Error> {
        log::info!("cancel {booking_id} by {}/{}", who.org_id, who.user_id);
        self.calendar.cancel(&who.org_id, booking_id).await
    }
}
