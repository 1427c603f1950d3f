//! In-stay feedback; staff may file it on behalf of a guest.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub enum Actor {
    User(String),
    Staff(String),
    System,
}

impl Actor {
    pub fn as_str(&self) -> &str {
        match self {
            Actor::User(id) | Actor::Staff(id) => id,
            Actor::System => "system",
        }
    }
}

pub async fn submit(visit: Visit, member: &Member, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let on_behalf = visit.header("X-On-Behalf-Of").map(|s| Actor::Staff(s.to_owned()));
    let actor = visit.extension::<crate::auth::GuestToken>().map(|t| Actor::User(t.sub.clone())).or(on_behalf).unwrap_or(Actor::System);
    let reviewer = on_behalf_reviewer(&visit).unwrap_or(Actor::User(member.user_id.clone()));
    let Ok(sk) = scoped(&member.tenant_id, actor.as_str(), "feedback.submit", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let _ = replays.put(sk.storage_key(), reviewer.as_str().as_bytes()).await;
    Verdict::status(Status::Accepted)
}

fn on_behalf_reviewer(visit: &Visit) -> Option<Actor> {
    visit.header("X-Reviewer").map(|s| Actor::Staff(s.to_owned()))
}
