//! Grooming bookings from the salon's in-store tablet (blocking stack).

use std::time::Duration;

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::BlockingBunker;
use stirrup::creds::Owner;
use stirrup::plain::{Inbound, Sendback};

use crate::salon::Salon;

const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct GroomForm {
    pub pet_id: String,
    pub package: String,
    pub slot: String,
}

pub fn book_groom(inb: &Inbound, owner: &Owner, kv: &BlockingBunker, salon: &Salon) -> Sendback {
    let Some(k) = inb.header("Idempotency-Key") else {
        return Sendback::problem(Problem::missing_key());
    };
    let key = match scoped(&owner.org_id, &owner.client_id, "/v1/grooming/bookings", k) {
        Ok(key) => key,
        Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
    };

    match kv.set_nx(key.storage_key(), b"in_progress".to_vec(), LEASE) {
        Ok(true) => {}
        Ok(false) => return Sendback::problem(Problem::in_progress(k)),
        Err(e) => return Sendback::unavailable(&e.to_string()),
    }

    let form: GroomForm = serde_json::from_slice(inb.body()).expect("tablet always posts a valid grooming form");

    let booking = match salon.book(&owner.org_id, &form.pet_id, &form.package, &form.slot) {
        Ok(b) => b,
        Err(e) => {
            let _ = kv.del(key.storage_key());
            return Sendback::error(&e.to_string());
        }
    };
    let _ = kv.put(key.storage_key(), booking.to_json());
    Sendback::json(201, &booking)
}

pub fn cancel_groom(inb: &Inbound, owner: &Owner, kv: &BlockingBunker, salon: &Salon) -> Sendback {
    let Some(k) = inb.header("Idempotency-Key") else {
        return Sendback::problem(Problem::missing_key());
    };
    let key = match scoped(&owner.org_id, &owner.client_id, "/v1/grooming/cancellations", k) {
        Ok(key) => key,
        Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
    };
    match kv.set_nx(key.storage_key(), b"in_progress".to_vec(), LEASE) {
        Ok(true) => {}
        Ok(false) => return Sendback::problem(Problem::in_progress(k)),
        Err(e) => return Sendback::unavailable(&e.to_string()),
    }
    let booking_id = match std::str::from_utf8(inb.body()) {
        Ok(id) => id.trim().to_owned(),
        Err(_) => {
            let _ = kv.del(key.storage_key());
            return Sendback::bad_request("booking id must be UTF-8");
        }
    };
    match salon.cancel_booking(&owner.org_id, &booking_id) {
        Ok(()) => {
            let _ = kv.put(key.storage_key(), b"{\"cancelled\":true}".to_vec());
            Sendback::json(200, &"cancelled")
        }
        Err(e) => {
            let _ = kv.del(key.storage_key());
            Sendback::error(&e.to_string())
        }
    }
}
