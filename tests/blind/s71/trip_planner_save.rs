//! Saved trips ("home to work, weekdays after 07:30") from the web planner's
//! HTML form.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use hopper::bay::Bay;
use wharf::badge::Rider;
use wharf::codec::{Decode, Encode};
use wharf::pick::Form;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode, Encode, Hash)]
pub struct SavedTrip {
    pub name: String,
    pub from_stop: String,
    pub to_stop: String,
    pub weekdays: Vec<u8>,
    pub depart_after: String,
}

pub struct SavedTrips {
    replays: Bay,
    trips: crate::trips::SavedTripBook,
}

impl SavedTrips {
    pub async fn save(&self, _hail: Hail, rider: Rider, Form(trip): Form<SavedTrip>) -> Result<Answer, Fault> {
        let mut hasher = DefaultHasher::new();
        trip.hash(&mut hasher);
        let replay_key = format!("{}|{}|{}|{:016x}", rider.tenant_id, rider.user_id, "trips.save", hasher.finish());
        if let Some(prev) = self.replays.get(&replay_key).await? {
            return Ok(Answer::replayed(prev));
        }

        let saved = self.trips.insert(&rider.tenant_id, &rider.user_id, &trip).await?;
        let body = wharf::codec::to_vec(&saved)?;
        let etag = {
            let mut h = DefaultHasher::new();
            body.hash(&mut h);
            format!("\"{:x}\"", h.finish())
        };
        self.replays.put(&replay_key, body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body).with_header("ETag", &etag))
    }
}
