//! In-process response cache of the blocking box-office API (kiosk mode).
//! Kiosks retry writes with the same key; reads of seat maps are cached too.
use std::collections::HashMap;
use std::sync::RwLock;

use proscenium::threaded::{Curtain, Cue};
use proscenium::pass::Patron;

#[derive(Hash, PartialEq, Eq, Clone)]
pub struct ResponseKey {
    pub org_id: String,
    pub route: String,
    pub client_key: String,
}

#[derive(Hash, PartialEq, Eq, Clone)]
pub struct SeatMapKey {
    pub org_id: String,
    pub performance_id: String,
}

#[derive(Clone)]
pub struct Cached {
    pub status: u16,
    pub body: Vec<u8>,
}

#[derive(Default)]
pub struct ResponseCache {
    writes: RwLock<HashMap<ResponseKey, Cached>>,
    seat_maps: RwLock<HashMap<SeatMapKey, Cached>>,
}

impl ResponseCache {
    pub fn write_once(&self, cue: &Cue, patron: &Patron, run: impl FnOnce(&Cue) -> Curtain) -> Curtain {
        let Some(key) = cue.header("Idempotency-Key") else {
            return Curtain::new(400).text("Idempotency-Key is required");
        };
        let mut writes = self.writes.write().unwrap();
        let cached = writes
            .entry(ResponseKey { org_id: patron.org_id.clone(), route: cue.route_template().to_owned(), client_key: key.to_owned() })
            .or_insert_with(|| {
                let answer = run(cue);
                Cached { status: answer.status(), body: answer.to_stored() }
            })
            .clone();
        Curtain::bytes(cached.status, cached.body)
    }

    pub fn seat_map(&self, patron: &Patron, performance_id: &str, load: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
        let mut maps = self.seat_maps.write().unwrap();
        maps.entry(SeatMapKey { org_id: patron.org_id.clone(), performance_id: performance_id.to_owned() })
            .or_insert_with(|| Cached { status: 200, body: load() })
            .body
            .clone()
    }
}
