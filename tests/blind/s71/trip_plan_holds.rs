//! Seat holds on reservation-only services (airport express, night coaches).

use std::collections::BTreeMap;
use std::sync::Mutex;

use hopper::stock::Stock;
use idem_scope::Problem;
use wharf::badge::Rider;
use wharf::codec::{Decode, Encode};
use wharf::{Answer, Code, Fault, Hail};

use crate::pricing::Pricing;

#[derive(Decode)]
pub struct HoldRequest {
    pub service_id: String,
    pub seats: u8,
}

#[derive(Clone, Encode)]
pub struct HoldReceipt {
    pub hold_id: String,
    pub price_minor: i64,
}

type Slot = (String, String, String);
type FullSlot = (String, String, String, String);

pub struct Holds {
    recent: Mutex<BTreeMap<Slot, HoldReceipt>>,
    releases: Mutex<BTreeMap<FullSlot, bool>>,
    stock: Stock,
    pricing: Pricing,
}

impl Holds {
    pub async fn hold(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let req: HoldRequest = hail.json()?;

        let slot = (rider.tenant_id.clone(), rider.user_id.clone(), k.clone());
        let cached = self.recent.lock().map_err(|_| Fault::internal("poisoned"))?.get(&slot).cloned();
        if let Some(prev) = cached {
            return Ok(Answer::json(Code::Ok, &prev));
        }

        let reservation = self.stock.reserve(&rider.tenant_id, &req.service_id, req.seats).await?;
        let price_minor = self.pricing.price(&req.service_id, req.seats).await?;
        let hold_id = self.stock.commit(reservation).await?;
        let receipt = HoldReceipt { hold_id, price_minor };

        self.recent.lock().map_err(|_| Fault::internal("poisoned"))?.insert(slot, receipt.clone());
        Ok(Answer::json(Code::Created, &receipt))
    }

    pub async fn release(&self, hail: Hail, rider: Rider, hold_id: String) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let slot = (rider.tenant_id.clone(), rider.user_id.clone(), "holds.release".to_owned(), k);
        if self.releases.lock().map_err(|_| Fault::internal("poisoned"))?.contains_key(&slot) {
            return Ok(Answer::status(Code::Ok));
        }
        self.stock.cancel_hold(&rider.tenant_id, &hold_id).await?;
        self.releases.lock().map_err(|_| Fault::internal("poisoned"))?.insert(slot, true);
        Ok(Answer::status(Code::Ok))
    }
}
