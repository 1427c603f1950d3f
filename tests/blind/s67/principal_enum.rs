use dunlin::kv::Kv;
use idem_scope::scoped;
use plover::auth::Claims;
use plover::{Ctx, Reply, Status};

pub enum Principal {
    User(String),
    Nobody,
}

impl Principal {
    pub fn as_str(&self) -> &str {
        match self {
            Principal::User(id) => id,
            Principal::Nobody => "nobody",
        }
    }
}

pub struct Rsvps {
    pub kv: Kv,
    pub stats: crate::metrics::Counters,
}

impl Rsvps {
    pub async fn rsvp(&self, ctx: Ctx, claims: Option<Claims>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::status(Status::BAD_REQUEST);
        };
        let Some(event_org) = ctx.path_param("org") else {
            return Reply::status(Status::NOT_FOUND);
        };
        let seen = claims.as_ref().map(|c| Principal::User(c.sub.clone())).unwrap_or(Principal::Nobody);
        self.stats.incr("rsvp.caller", &[("who", seen.as_str())]);
        let who = claims.map(|c| Principal::User(c.sub)).unwrap_or(Principal::Nobody);
        let Ok(sk) = scoped(event_org, who.as_str(), "rsvp.create", key) else {
            return Reply::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let rsvp = crate::events::rsvp(event_org, who.as_str(), ctx.body()).await;
        self.kv.put(sk.storage_key(), rsvp.to_bytes()).await.ok();
        Reply::json(Status::CREATED, &rsvp)
    }
}
