//! AMI meter-swap appointments booked by customers (blocking worker pool).

use std::sync::Mutex;

use aquifer::tank::SyncTank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Customer;
use penstock::blocking::Intake;
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct SwapRequest {
    premise_id: String,
    window: String,
}

pub struct SlotBook {
    open: Vec<crate::field::Appointment>,
}

impl SlotBook {
    fn take_next(&mut self, tenant_id: &str, window: &str) -> Option<crate::field::Appointment> {
        let at = self.open.iter().position(|a| a.tenant_id == tenant_id && a.window == window)?;
        Some(self.open.remove(at))
    }
}

pub fn book_swap(intake: &Intake, who: &Customer, tank: &SyncTank, slots: &Mutex<SlotBook>) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "meter-swap", key)?;
    let req: SwapRequest = intake.json()?;
    tank.claim(ck.storage_key(), &Fingerprint::of("meter-swap", intake.body()))?;
    let next = {
        let mut book = slots.lock().expect("slot book poisoned");
        book.take_next(&who.tenant_id, &req.window)
    };
    let Some(appt) = next else {
        tank.release(ck.storage_key())?;
        return Err(Fault::status(Code::CONFLICT, "no appointment left in that window"));
    };
    let booked = crate::field::orders().book_swap(&who.tenant_id, &req.premise_id, &appt)?;
    let out = Outflow::json(Code::CREATED, &booked);
    tank.complete(ck.storage_key(), &out)?;
    Ok(out)
}
