//! Venue-scope usher: maps the request host to the venue group that owns it and
//! answers retried writes from the replay batten before they reach a route.
use std::collections::HashMap;
use std::time::Duration;

use idem_scope::scoped;
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::usher::{BoxCurtain, Aisle, Usher};
use proscenium::{Curtain, Cue};

const SHARED_VENUE: &str = "shared";

pub struct VenueScope {
    pub hosts: HashMap<String, String>,
    pub batten: Batten,
    pub keep: Duration,
}

impl Usher for VenueScope {
    fn usher<'a>(&'a self, cue: Cue, aisle: Aisle<'a>) -> BoxCurtain<'a> {
        Box::pin(async move {
            let org: String = match self.hosts.get(cue.host()) {
                Some(org) => org.clone(),
                None => SHARED_VENUE.to_owned(),
            };
            let locale = cue.header("accept-language").unwrap_or("en").to_owned();
            let Some(key) = cue.header("Idempotency-Key").map(str::to_owned) else {
                return aisle.walk(cue).await.header("Content-Language", &locale);
            };
            let Some(user) = cue.pass::<Patron>().map(|p| p.user_id.clone()) else {
                return Curtain::new(401);
            };
            let route = cue.route_template().to_owned();
            let Ok(sk) = scoped(&org, &user, &route, &key) else {
                return Curtain::new(400);
            };
            if let Ok(Some(stored)) = self.batten.get(sk.storage_key()).await {
                return Curtain::replay(Some(stored)).header("Content-Language", &locale);
            }
            let answer = aisle.walk(cue).await;
            if answer.status() < 500 {
                let _ = self.batten.put(sk.storage_key(), answer.to_stored(), self.keep).await;
            }
            answer.header("Content-Language", &locale)
        })
    }
}
