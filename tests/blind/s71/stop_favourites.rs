//! Favourite stops. Riders who signed up through a social login have user
//! ids like "google/1093...", which the old favourites store could not take.

use std::borrow::Cow;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

#[derive(Decode)]
pub struct Favourite {
    pub stop_id: String,
    pub stop_name: String,
}

fn clean(s: &str) -> Cow<'_, str> {
    if s.contains('/') {
        Cow::Owned(s.replace('/', "-"))
    } else {
        Cow::Borrowed(s)
    }
}

pub struct Favourites {
    replays: Bay,
    stops: crate::stops::StopBook,
}

impl Favourites {
    pub async fn save(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let fav: Favourite = hail.json()?;

        let user = clean(&rider.user_id);
        let title = fav.stop_name.replace('/', " / ");

        let key = scoped(&rider.tenant_id, &user, "favourites.save", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let saved = self.stops.favourite(&rider.tenant_id, &rider.user_id, &fav.stop_id, &title).await?;
        let body = wharf::codec::to_vec(&saved)?;
        self.replays.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Created, body))
    }
}
