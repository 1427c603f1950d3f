use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

#[derive(Clone, PartialEq)]
enum Slot {
    Running,
    Done(Vec<u8>),
}

/// In-process idempotency table for the booking service (single replica).
#[derive(Default)]
pub struct BookingIdem {
    slots: Mutex<HashMap<String, Slot>>,
}

impl BookingIdem {
    pub fn begin(&self, key: &str) -> Result<(), Conflict> {
        let mut slots = self.slots.lock();
        match slots.get(key) {
            Some(Slot::Running) => Err(Conflict::InProgress),
            Some(Slot::Done(b)) => Err(Conflict::Replay(b.clone())),
            None => {
                slots.insert(key.to_owned(), Slot::Running);
                Ok(())
            }
        }
    }
    pub fn finish(&self, key: &str, body: Vec<u8>) {
        self.slots.lock().insert(key.to_owned(), Slot::Done(body));
    }
    pub fn abandon(&self, key: &str) {
        self.slots.lock().remove(key);
    }
}

pub struct BookingApi {
    idem: Arc<BookingIdem>,
    seats: RwLock<SeatMap>,
}

pub struct BookingReq<'a> {
    pub headers: &'a [(&'a str, &'a str)],
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub seat: &'a str,
}

impl BookingApi {
    pub fn book(&self, req: &BookingReq<'_>) -> Result<Vec<u8>, BookingError> {
        let op_id = req
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))
            .map(|(_, v)| *v)
            .ok_or(BookingError::MissingKey)?;
        let key = idem_scope::scoped(req.tenant_id, req.user_id, "seats.book", op_id)?;
        self.idem.begin(key.storage_key())?;
        let mut seats = self.seats.write();
        if !seats.is_free(req.seat) {
            return Err(BookingError::SoldOut);
        }
        seats.assign(req.seat, req.user_id);
        let body = format!("{{\"seat\":\"{}\"}}", req.seat).into_bytes();
        self.idem.finish(key.storage_key(), body.clone());
        Ok(body)
    }

    pub fn cancel(&self, req: &BookingReq<'_>) -> Result<Vec<u8>, BookingError> {
        let op_id = req
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key"))
            .map(|(_, v)| *v)
            .ok_or(BookingError::MissingKey)?;
        let key = idem_scope::scoped(req.tenant_id, req.user_id, "seats.cancel", op_id)?;
        self.idem.begin(key.storage_key())?;
        let mut seats = self.seats.write();
        if !seats.held_by(req.seat, req.user_id) {
            self.idem.abandon(key.storage_key());
            return Err(BookingError::NotYours);
        }
        seats.release_seat(req.seat);
        let body = br#"{"cancelled":true}"#.to_vec();
        self.idem.finish(key.storage_key(), body.clone());
        Ok(body)
    }
}
