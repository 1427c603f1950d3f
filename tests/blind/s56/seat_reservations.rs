use idem_scope::{scoped, Fingerprint, Problem};

use crate::replay_store::{AsyncStore, Ticket};
use crate::venues::{Venue, Hold};

pub struct Reservations {
    store: AsyncStore,
    venues: crate::venues::Client,
}

pub struct Reserve<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub headers: &'a http::HeaderMap,
    pub event_id: &'a str,
    pub seats: u32,
    pub raw: &'a [u8],
}

fn client_key<'a>(headers: &'a http::HeaderMap) -> Result<&'a str, Problem> {
    headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)
}

impl Reservations {
    pub async fn reserve(&self, r: Reserve<'_>) -> Result<Vec<u8>, Problem> {
        let key = client_key(r.headers)?;
        let sk = scoped(r.tenant_id, r.user_id, "seats.reserve", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("seats.reserve", r.raw);

        self.store.reserve(&sk, &fp).await.map_err(|_| Problem::in_progress(key))?;
        let venue: Venue = self.venues.venue_for(r.event_id).await.map_err(|_| Problem::invalid_key("unknown event"))?;
        if venue.sold_out {
            if venue.waitlist_open {
                return Err(Problem::invalid_key("sold out; join the waitlist"));
            }
        }
        let hold: Hold = self.venues.hold(r.tenant_id, r.event_id, r.seats).await.map_err(|_| Problem::in_progress(key))?;
        let body = serde_json::to_vec(&hold).unwrap_or_default();
        self.store.store_response(&sk, &body).await.map_err(|_| Problem::in_progress(key))?;
        Ok(body)
    }

    pub async fn release_seats(&self, r: Reserve<'_>) -> Result<Vec<u8>, Problem> {
        let key = client_key(r.headers)?;
        let sk = scoped(r.tenant_id, r.user_id, "seats.release", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fp = Fingerprint::of("seats.release", r.raw);

        let Some(ticket): Option<Ticket> = self.store.try_claim(&sk, &fp).await.map_err(|_| Problem::in_progress(key))? else {
            return Err(Problem::in_progress(key));
        };
        let freed = self.venues.free(r.tenant_id, r.event_id, r.seats).await.map_err(|_| Problem::invalid_key("nothing held"))?;
        let body = serde_json::to_vec(&freed).unwrap_or_default();
        ticket.complete(&body).await.map_err(|_| Problem::in_progress(key))?;
        Ok(body)
    }
}
