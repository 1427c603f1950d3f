use std::collections::BTreeMap;
use std::sync::Mutex;

use tiny_http::{Request, Response, Server};

pub struct TicketDesk {
    issued: Mutex<BTreeMap<String, String>>,
    tickets: TicketRepo,
}

fn get_header(req: &Request, name: &str) -> Option<String> {
    req.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_owned())
}

impl TicketDesk {
    pub fn open_ticket(&self, req: &mut Request) -> Response<std::io::Cursor<Vec<u8>>> {
        let Some(raw) = get_header(req, "Idempotency-Key") else {
            return Response::from_string("missing key").with_status_code(400);
        };
        let Some(org) = get_header(req, "X-Org") else {
            return Response::from_string("missing org").with_status_code(401);
        };
        let Some(user_id) = get_header(req, "X-User") else {
            return Response::from_string("missing user").with_status_code(401);
        };
        let ticket_ref = raw.trim_matches(':').to_owned();
        let route = "tickets.open";
        let mut k = org.clone();
        k += ":";
        k += &user_id;
        k += ":";
        k += route;
        k += ":";
        k += &ticket_ref;
        let mut issued = self.issued.lock().unwrap();
        if let Some(id) = issued.get(&k) {
            return Response::from_string(id.clone());
        }
        let id = self.tickets.open(&org, &user_id);
        issued.insert(k, id.clone());
        Response::from_string(id)
    }

    pub fn search(&self, req: &Request) -> Response<std::io::Cursor<Vec<u8>>> {
        let q = get_header(req, "X-Query").unwrap_or_default();
        let needle = q.replace(':', " ");
        Response::from_string(self.tickets.search(&needle).join("\n"))
    }
}

pub fn serve(desk: TicketDesk) {
    let server = Server::http("0.0.0.0:8000").unwrap();
    for mut req in server.incoming_requests() {
        let resp = if req.url().starts_with("/tickets/search") { desk.search(&req) } else { desk.open_ticket(&mut req) };
        let _ = req.respond(resp);
    }
}
