use std::collections::HashSet;
use std::sync::Mutex;

use lintel::blocking::{Answer, Call, Code};

use crate::helpdesk::{Helpdesk, NewTicket};

const WINDOW: usize = 4096;

/// Recently seen ticket bodies, so that a client that double-submits the
/// support form gets one ticket.
struct RecentBodies {
    dedup: HashSet<(String, String, &'static str, String)>,
    admitted: u64,
}

impl RecentBodies {
    fn admit(&mut self, tenant_id: &str, user_id: &str, fuzzy: String) -> bool {
        if self.dedup.len() >= WINDOW {
            self.dedup.clear();
        }
        if !self.dedup.insert((tenant_id.to_owned(), user_id.to_owned(), "ticket_open", fuzzy)) {
            return false;
        }
        self.admitted += 1;
        true
    }
}

pub struct TicketIntake {
    desk: Helpdesk,
    dedup_window: Mutex<RecentBodies>,
}

impl TicketIntake {
    pub fn post(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Ok(ticket) = call.form::<NewTicket>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let fuzzy = match ssdeep::hash(call.body()) {
            Ok(h) => h,
            Err(_) => return Answer::status(Code::BAD_REQUEST),
        };
        let fresh = self.dedup_window.lock().map(|mut w| w.admit(&who.tenant_id, &who.user_id, fuzzy)).unwrap_or(true);
        if !fresh {
            return Answer::text(Code::OK, "{\"duplicate\":true}");
        }
        let team_id = ticket.team_id.clone().unwrap_or_default();
        match self.desk.open(&who.tenant_id, &who.user_id, &team_id, ticket) {
            Ok(id) => Answer::text(Code::CREATED, &format!("{{\"ticket\":\"{id}\"}}")),
            Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        }
    }
}
