use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use idem_scope::Problem;
use wicket::raw::{Request, Response};

pub trait Endpoint: Send + Sync {
    fn handle(&self, req: &Request) -> Response;
}

pub struct BookingEndpoint {
    held: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    inventory: Arc<dyn RoomInventory>,
}

pub trait RoomInventory: Send + Sync {
    fn hold(&self, hotel: &str, room_type: &str, nights: u8, locale: &str) -> Result<Vec<u8>, String>;
}

struct Identity {
    tenant: String,
    caller: String,
}

fn identity(req: &Request) -> Option<Identity> {
    let tenant = req.header("x-tenant")?.to_owned();
    let caller = req.extension::<gateway_auth::Verified>()?.principal.clone();
    Some(Identity { tenant, caller })
}

impl Endpoint for BookingEndpoint {
    fn handle(&self, req: &Request) -> Response {
        let Some(who) = identity(req) else {
            return Response::status(401);
        };
        let route = "bookings.hold";
        let locale = req.header("accept-language").unwrap_or("en");

        let slot = match req.header("Idempotency-Key") {
            Some(k) if k.len() > 255 => {
                return Response::problem(Problem::invalid_key(&format!("key {} is longer than 255 bytes", k)));
            }
            Some(k) => who.tenant.clone() + "#" + &who.caller + "#" + route + "#" + k,
            None => return Response::problem(Problem::missing_key()),
        };

        if let Some(done) = self.held.lock().unwrap().get(&slot) {
            return Response::ok(done.clone()).with_header("Idempotent-Replayed", "true");
        }

        let hotel = req.query("hotel").unwrap_or_default();
        let room_type = req.query("room").unwrap_or_default();
        match self.inventory.hold(hotel, room_type, 2, locale) {
            Ok(body) => {
                self.held.lock().unwrap().insert(slot, body.clone());
                Response::created(body)
            }
            Err(msg) => Response::status(409).with_body(msg.into_bytes()),
        }
    }
}
