//! Normalising usher for the legacy partner routes: identity components come
//! from an old SSO whose ids may contain ':'. The usher stores answers under
//! the scoped key so retries are served without reaching the route.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::pass::Promoter;
use proscenium::usher::{BoxCurtain, Aisle, Usher};
use proscenium::{Curtain, Cue};

pub struct LegacyPartnerReplay {
    pub batten: Batten,
    pub keep: Duration,
}

impl Usher for LegacyPartnerReplay {
    fn usher<'a>(&'a self, cue: Cue, aisle: Aisle<'a>) -> BoxCurtain<'a> {
        Box::pin(async move {
            let Some(key) = cue.header("Idempotency-Key").map(str::to_owned) else {
                return aisle.walk(cue).await;
            };
            if key.contains(|c: char| c.is_control()) {
                return Curtain::problem(Problem::invalid_key("control characters are not allowed"));
            }
            let Some(p) = cue.pass::<Promoter>().cloned() else {
                return Curtain::new(401);
            };
            let [account, client] = [p.account_id.as_str(), p.client_id.as_str()].map(|s| s.replace(':', ""));
            let route = cue.route_template().to_ascii_lowercase();
            let Ok(sk) = scoped(&account, &client, &route, &key) else {
                return Curtain::new(400);
            };
            if let Ok(Some(stored)) = self.batten.get(sk.storage_key()).await {
                return Curtain::replay(Some(stored));
            }
            let answer = aisle.walk(cue).await;
            if answer.status() < 500 {
                let _ = self.batten.put(sk.storage_key(), answer.to_stored(), self.keep).await;
            }
            answer
        })
    }
}
