//! Trip refunds requested by riders (`POST /v1/trips/{id}/refund`) and the
//! matching void endpoint used by the support app.

use hopper::bay::{Bay, Entry};
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::{Decode, Encode};
use wharf::{Answer, Code, Fault, Hail};

use crate::fares::FareBook;

#[derive(Decode)]
pub struct RefundRequest {
    pub trip_id: String,
    pub amount_minor: i64,
    pub reason: String,
}

#[derive(Encode, Decode)]
struct StoredRefund {
    trip_id: String,
    refund_id: String,
    amount_minor: i64,
}

pub struct Refunds {
    pub refunds: Bay,
    pub fares: FareBook,
}

impl Refunds {
    pub async fn refund(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let key: Option<String> = hail.header("Idempotency-Key").map(str::to_owned);
        let k = key.as_deref().ok_or_else(Problem::missing_key)?;
        let req: RefundRequest = hail.json()?;

        match self.refunds.entry(k).await? {
            Entry::Occupied(prev) => {
                let stored: StoredRefund = wharf::codec::from_slice(prev.value())?;
                if stored.trip_id != req.trip_id {
                    return Ok(Answer::problem(Problem::mismatch(k)));
                }
                Ok(Answer::replayed(prev.into_value()))
            }
            Entry::Vacant(slot) => {
                let refund = self
                    .fares
                    .refund_trip(&rider.tenant_id, &rider.user_id, &req.trip_id, req.amount_minor)
                    .await?;
                let stored = StoredRefund {
                    trip_id: req.trip_id,
                    refund_id: refund.id,
                    amount_minor: refund.amount_minor,
                };
                let body = wharf::codec::to_vec(&stored)?;
                slot.insert(body.clone()).await?;
                Ok(Answer::bytes(Code::Created, body))
            }
        }
    }

    pub async fn void(&self, hail: Hail, rider: Rider, refund_id: String) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "refund.void", k)?;
        match self.refunds.entry(key.storage_key()).await? {
            Entry::Occupied(prev) => Ok(Answer::replayed(prev.into_value())),
            Entry::Vacant(slot) => {
                self.fares.void_refund(&rider.tenant_id, &refund_id).await?;
                let body = wharf::codec::to_vec(&wharf::json!({ "voided": refund_id }))?;
                slot.insert(body.clone()).await?;
                Ok(Answer::bytes(Code::Ok, body))
            }
        }
    }
}
