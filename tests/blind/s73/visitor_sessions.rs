//! Event registrations (field days, agronomy clinics). The event page works
//! for members and for visitors who have not signed in.

use bushel::crock::Crock;
use furrow::glean::Form;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

pub enum Visitor {
    Member(String),
    Unknown,
}

impl Visitor {
    pub fn as_str(&self) -> &str {
        match self {
            Visitor::Member(id) => id,
            Visitor::Unknown => "unknown",
        }
    }
}

#[derive(Deserialize)]
pub struct Registration {
    pub event_id: String,
    pub attendees: u8,
    pub email: String,
}

pub struct Events {
    pub crock: Crock,
    pub org_id: String,
    pub roster: Roster,
    pub sessions: SessionStore,
}

pub async fn register(p: Petition, Shared(ev): Shared<Events>, Form(reg): Form<Registration>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let session = p.cookie("coop_session").and_then(|c| ev.sessions.user_id_for(c));
    let visitor = session.map(Visitor::Member).unwrap_or(Visitor::Unknown);
    let user_id = visitor.as_str();
    let key = match scoped(&ev.org_id, user_id, "event_register", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = ev.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let seat = match ev.roster.add(&reg.event_id, reg.attendees, &reg.email).await {
        Ok(s) => s,
        Err(e) => return Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&seat).unwrap_or_default();
    let _ = ev.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}

pub async fn headcount(p: Petition, Shared(ev): Shared<Events>) -> Ruling {
    let session = p.cookie("coop_session").and_then(|c| ev.sessions.user_id_for(c));
    let who = session.map(Visitor::Member).unwrap_or(Visitor::Unknown);
    let greeting = match who {
        Visitor::Member(_) => "welcome back",
        Visitor::Unknown => "welcome",
    };
    Ruling::ok().json(&serde_json::json!({ "greeting": greeting, "count": ev.roster.total().await }))
}
