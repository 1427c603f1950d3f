//! Fare disputes: a rider contests a charge (missed tap-off, double tap).

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::cases::CaseDesk;
use crate::trips::TripStore;

const LEASE: Duration = Duration::from_secs(45);
const WITHDRAW_LEASE: Duration = Duration::from_secs(10);

#[derive(Decode)]
pub struct Dispute {
    pub trip_id: String,
    pub reason: String,
    pub amount_minor: i64,
}

pub struct Disputes {
    pub bay: Bay,
    pub trips: TripStore,
    pub cases: CaseDesk,
}

impl Disputes {
    pub async fn open(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: Dispute = hail.json()?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "disputes.open", k)?;

        if !self.bay.try_claim(key.storage_key(), LEASE).await? {
            return Ok(Answer::problem(Problem::in_progress(k)));
        }

        let evidence = self.trips.evidence(&rider.tenant_id, &req.trip_id).await;
        if let Err(e) = &evidence {
            tracing::warn!(trip = %req.trip_id, error = %e, "trip evidence unavailable");
            return Ok(Answer::status(Code::ServiceUnavailable));
        }

        let body = match self.cases.open(&rider.tenant_id, &req, evidence.ok()).await {
            Ok(case) => case.to_json_bytes(),
            Err(e) => {
                self.bay.release(key.storage_key()).await.ok();
                return Err(e.into());
            }
        };
        self.bay.complete(key.storage_key(), &body).await?;
        Ok(Answer::bytes(Code::Created, body))
    }

    pub async fn withdraw(&self, hail: Hail, rider: Rider, dispute_id: String) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "disputes.withdraw", k)?;

        if !self.bay.try_claim(key.storage_key(), WITHDRAW_LEASE).await? {
            return Ok(Answer::problem(Problem::in_progress(k)));
        }
        let res = self.cases.withdraw(&rider.tenant_id, &dispute_id).await;
        if let Err(e) = res {
            self.bay.release(key.storage_key()).await.ok();
            return Err(e.into());
        }
        self.bay.complete(key.storage_key(), b"withdrawn").await?;
        Ok(Answer::status(Code::Ok))
    }
}
