//! Paratransit (door-to-door) trip bookings. Riders book in the app; call
//! centre dispatchers book by phone for riders without a smartphone.

use std::fmt;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::{Dispatcher, MaybeRider};
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

enum Booker {
    Rider(String),
    Dispatcher(String),
    Shared,
}

impl fmt::Display for Booker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Booker::Rider(id) => write!(f, "{id}"),
            Booker::Dispatcher(id) => write!(f, "dispatch.{id}"),
            Booker::Shared => f.write_str("shared"),
        }
    }
}

#[derive(Decode)]
pub struct TripBooking {
    pub pickup: String,
    pub dropoff: String,
    pub at: time::OffsetDateTime,
    pub mobility_aid: Option<String>,
}

pub struct Paratransit {
    tenant_id: String,
    replays: Bay,
    scheduler: crate::paratransit::Scheduler,
}

impl Paratransit {
    pub async fn book(&self, hail: Hail, rider: MaybeRider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let trip: TripBooking = hail.json()?;

        let booker = hail
            .badge::<Dispatcher>()
            .map(|d| Booker::Dispatcher(d.actor.clone()))
            .or_else(|| rider.0.as_ref().map(|r| Booker::Rider(r.user_id.clone())))
            .unwrap_or(Booker::Shared);
        let aid = trip.mobility_aid.clone().unwrap_or_else(|| "none".to_owned());

        let key = scoped(&self.tenant_id, &booker.to_string(), "paratransit.book", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let slot = self.scheduler.book(&self.tenant_id, &trip.pickup, &trip.dropoff, trip.at, &aid).await?;
        let body = wharf::codec::to_vec(&slot)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
