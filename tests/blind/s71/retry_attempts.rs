//! End-of-day fare capture: the day's taps are aggregated and the rider's
//! card is charged once. Riders can also settle early from the app.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{scoped, scoped_server, Problem};
use time::Date;
use uuid::Uuid;
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};

use crate::psp::PspClient;

const ROUTE: &str = "fare.capture";

fn backoff(attempt_no: u32) -> Duration {
    Duration::from_millis(250 * 2u64.pow(attempt_no))
}

pub struct Capture {
    bay: Bay,
    receipts: Bay,
    psp: PspClient,
}

impl Capture {
    /// `POST /v1/fares/settle`
    pub async fn settle_now(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let key = scoped(&rider.tenant_id, &rider.user_id, ROUTE, k)?;
        if let Some(prev) = self.bay.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let out = self.psp.capture_open_day(&rider.tenant_id, &rider.user_id).await?;
        self.bay.put(key.storage_key(), out.reference.clone().into_bytes()).await?;
        Ok(Answer::json(Code::Ok, &out))
    }

    pub async fn capture_day(&self, tenant_id: &str, user_id: &str, day: Date, amount_minor: i64) -> anyhow::Result<()> {
        for attempt_no in 1..=3u32 {
            let attempt = Uuid::new_v4();
            let key = scoped(tenant_id, user_id, ROUTE, &attempt.to_string())?;
            if self.bay.exists(key.storage_key()).await? {
                return Ok(());
            }
            let sent = self
                .psp
                .capture(tenant_id, user_id, day, amount_minor)
                .header("Idempotency-Key", attempt.to_string())
                .send()
                .await;
            match sent {
                Ok(r) => {
                    let receipt_id = Uuid::new_v4();
                    self.receipts.put(&receipt_id.to_string(), wharf::codec::to_vec(&r)?).await?;
                    self.bay.put(key.storage_key(), r.reference.into_bytes()).await?;
                    return Ok(());
                }
                Err(e) if attempt_no < 3 => {
                    tracing::warn!(%attempt, error = %e, "capture failed, retrying");
                    tokio::time::sleep(backoff(attempt_no)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// Agency-level settlement batches, keyed by the batch id the scheduler minted.
    pub async fn settle_batch(&self, tenant_id: &str, batch_id: Uuid) -> anyhow::Result<()> {
        let key = scoped_server(tenant_id, "settlement", ROUTE, &batch_id.to_string())?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(());
        }
        let out = self.psp.settle_batch(tenant_id, batch_id).await?;
        self.bay.put(key.storage_key(), out.reference.into_bytes()).await?;
        Ok(())
    }
}
