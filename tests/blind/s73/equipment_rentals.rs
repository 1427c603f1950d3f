//! Equipment rentals (grain carts, air seeders, tender trucks) booked at
//! the branch counter. The counter app is synchronous (blocking furrow);
//! bookings are deduplicated per idempotency key and the unit itself is
//! held with a rental lease.

use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, SystemTime};

use bushel::crock::SyncCrock;
use bushel::rental::Rentals;
use furrow::still::{Petition, Ruling};
use idem_scope::{scoped, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
struct Booking {
    unit_id: String,
    days: u32,
    notes: Option<String>,
}

pub struct Counter {
    pub crock: SyncCrock,
    pub rentals: Rentals,
    pub org_id: String,
    pub billing: RentalBilling,
}

fn rent_unit(c: &Counter, user_id: &str, b: &Booking) -> Result<Vec<u8>, RentalError> {
    let until = SystemTime::now() + Duration::from_secs(u64::from(b.days) * 86_400);
    let lease = c.rentals.acquire(&b.unit_id, until)?;
    let inspection = c.rentals.pre_inspection(&lease)?;
    let notes = b.notes.clone().unwrap_or_default();
    let invoice = c.billing.open(&c.org_id, user_id, &lease, &inspection, &notes)?;
    c.rentals.confirm(lease)?;
    Ok(furrow::codec::to_vec(&invoice).unwrap_or_default())
}

pub fn book(c: &Counter, p: &Petition) -> Ruling {
    let (Some(user_id), Some(k)) = (p.header("X-Counter-User"), p.header("Idempotency-Key")) else {
        return Ruling::problem(Problem::missing_key());
    };
    let Ok(key) = scoped(&c.org_id, user_id, "rental_booking", k) else {
        return Ruling::problem(Problem::invalid_key("separator"));
    };
    match c.crock.claim(key.storage_key()) {
        Ok(true) => {}
        Ok(false) => return Ruling::problem(Problem::in_progress(k)),
        Err(_) => return Ruling::status(503),
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        let b: Booking = furrow::codec::from_slice(p.body()).expect("counter app sends valid JSON");
        rent_unit(c, user_id, &b)
    }));
    let body = match outcome {
        Ok(Ok(body)) => body,
        Ok(Err(e)) => {
            let _ = c.crock.release(key.storage_key());
            return Ruling::status(409).text(&e.to_string());
        }
        Err(panic_payload) => {
            let _ = c.crock.release(key.storage_key());
            panic::resume_unwind(panic_payload);
        }
    };
    let _ = c.crock.complete(key.storage_key(), &body);
    Ruling::status(201).bytes(body)
}

pub fn extend(c: &Counter, p: &Petition) -> Result<Ruling, RentalError> {
    let (Some(user_id), Some(k)) = (p.header("X-Counter-User"), p.header("Idempotency-Key")) else {
        return Ok(Ruling::problem(Problem::missing_key()));
    };
    let key = scoped(&c.org_id, user_id, "rental_extend", k)?;
    if !c.crock.claim(key.storage_key())? {
        return Ok(Ruling::problem(Problem::in_progress(k)));
    }
    let release = |e: RentalError| {
        let _ = c.crock.release(key.storage_key());
        e
    };
    let b: Booking = furrow::codec::from_slice(p.body()).map_err(RentalError::from).map_err(release)?;
    let extended = c.rentals.extend(&b.unit_id, b.days).map_err(release)?;
    let body = furrow::codec::to_vec(&extended).unwrap_or_default();
    c.crock.complete(key.storage_key(), &body).map_err(RentalError::from).map_err(release)?;
    Ok(Ruling::status(200).bytes(body))
}
