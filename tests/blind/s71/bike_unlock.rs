//! Bike-share dock unlocks and ride ends. The dock controller answers slowly
//! over LTE, so the app retries; a retry must not unlock a second bike.

use std::time::Duration;

use hopper::bay::{Bay, Claim};
use idem_scope::{scoped, ClaimGuard, Problem};
use tokio::sync::Semaphore;
use wharf::badge::Rider;
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

use crate::dock::Controller;

const LEASE: Duration = Duration::from_secs(20);
const DOCK_TIMEOUT: Duration = Duration::from_secs(8);

#[derive(Decode)]
pub struct UnlockRequest {
    pub dock_id: String,
    pub bike_id: String,
}

pub struct Docks {
    pub bay: Bay,
    pub ctl: Controller,
    pub unlock_slots: Semaphore,
}

impl Docks {
    pub async fn unlock(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: UnlockRequest = hail.json()?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "bikes.unlock", k)?;
        let _permit = self.unlock_slots.acquire().await?;

        match self.bay.claim(key.storage_key(), LEASE).await? {
            Claim::Fresh => {}
            Claim::Done(prev) => return Ok(Answer::replayed(prev)),
            Claim::Held => return Ok(Answer::problem(Problem::in_progress(k))),
        }

        let unlocked = tokio::time::timeout(DOCK_TIMEOUT, self.ctl.unlock(&req.dock_id, &req.bike_id)).await?;
        let body = match unlocked {
            Ok(unlock) => unlock.to_receipt_bytes(),
            Err(err) => {
                tracing::warn!(dock = %req.dock_id, error = %err, "dock refused unlock");
                self.bay.release(key.storage_key()).await.ok();
                return Ok(Answer::status(Code::BadGateway));
            }
        };
        self.bay.complete(key.storage_key(), &body).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn end_ride(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let req: UnlockRequest = hail.json()?;
        let key = scoped(&rider.tenant_id, &rider.user_id, "bikes.end_ride", k)?;

        let Claim::Fresh = self.bay.claim(key.storage_key(), LEASE).await? else {
            return Ok(Answer::status(Code::Conflict));
        };
        let bay = self.bay.clone();
        let release_key = key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = bay.release(&release_key).await;
            });
        });

        let ride = tokio::time::timeout(DOCK_TIMEOUT, self.ctl.lock(&req.dock_id, &req.bike_id)).await??;
        let body = ride.to_receipt_bytes();
        self.bay.complete(key.storage_key(), &body).await?;
        guard.complete();
        Ok(Answer::bytes(Code::Ok, body))
    }
}
