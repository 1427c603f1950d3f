//! Front-desk appointment booking for the clinic network.
//!
//! Desk staff book visits on behalf of pet owners. The desk app retries a POST
//! with the same `Idempotency-Key` when the clinic Wi-Fi drops, so the booking
//! answer is remembered and replayed.

use arrayvec::ArrayString;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Inbound, Sendback, Shared};

use crate::diary::Diary;

const BOOK_ROUTE: &str = "/v1/appointments";
const CANCEL_ROUTE: &str = "/v1/appointments/cancel";

pub struct FrontDesk {
    pub idem: Bunker,
    pub diary: Diary,
}

#[derive(Deserialize)]
pub struct BookingForm {
    pub pet_id: String,
    pub vet_id: String,
    pub starts_at: String,
    pub reason: String,
}

#[derive(Deserialize)]
pub struct CancelForm {
    pub appointment_id: String,
    pub reason: Option<String>,
}

#[derive(Serialize)]
pub struct Booked {
    pub appointment_id: String,
    pub starts_at: String,
}

pub async fn book(
    inb: Inbound,
    staff: Staff,
    desk: Shared<FrontDesk>,
    JsonIn(form): JsonIn<BookingForm>,
) -> Sendback {
    let Some(idem) = inb.header("Idempotency-Key") else {
        return Sendback::problem(Problem::missing_key());
    };

    // Fixed-size slot so the desk path never allocates on the hot path.
    let mut slot: ArrayString<192> = ArrayString::new();
    slot.push_str(&staff.org_id);
    slot.push('\u{1f}');
    slot.push_str(&staff.user_id);
    slot.push('\u{1f}');
    slot.push_str(BOOK_ROUTE);
    slot.push('\u{1f}');
    slot.push_str(idem);

    if let Ok(Some(prev)) = desk.idem.get(&slot).await {
        return Sendback::replay(prev);
    }

    let appt = match desk
        .diary
        .book_visit(&staff.org_id, &form.pet_id, &form.vet_id, &form.starts_at, &form.reason)
        .await
    {
        Ok(a) => a,
        Err(e) => return Sendback::error(e),
    };

    let body = Booked { appointment_id: appt.id.clone(), starts_at: appt.starts_at.clone() };
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let _ = desk.idem.put(&slot, bytes).await;
    Sendback::json(Code::Created, &body)
}

pub async fn cancel(
    inb: Inbound,
    staff: Staff,
    desk: Shared<FrontDesk>,
    JsonIn(form): JsonIn<CancelForm>,
) -> Sendback {
    let Some(idem) = inb.header("Idempotency-Key") else {
        return Sendback::problem(Problem::missing_key());
    };
    let key = match scoped(&staff.org_id, &staff.user_id, CANCEL_ROUTE, idem) {
        Ok(k) => k,
        Err(e) => return Sendback::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = desk.idem.get(key.storage_key()).await {
        return Sendback::replay(prev);
    }

    let why = form.reason.as_deref().unwrap_or("no reason given");
    let note = format!("cancelled by {} ({}), request {}", staff.user_id, why, idem);
    if let Err(e) = desk.diary.cancel_visit(&staff.org_id, &form.appointment_id, &note).await {
        return Sendback::error(e);
    }
    let _ = desk.idem.put(key.storage_key(), b"{\"cancelled\":true}".to_vec()).await;
    Sendback::status(Code::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use silage::bunker::Bunker;

    #[tokio::test]
    async fn replayed_booking_is_served_from_the_slot() {
        let kv = Bunker::memory();
        let raw = "desk-retry-1";
        kv.put(raw, b"{}".to_vec()).await.unwrap();
        assert!(kv.get(raw).await.unwrap().is_some());
    }
}
