//! Life-support alarms (pump failure, low dissolved oxygen) from the PLCs.
//! Each alarm pages the on-call aquarist once; escalation runs under a
//! lease so only one node escalates a given exhibit.

use std::time::Duration;

use driftnet::{Consumer, Parcel};
use idem_scope::scoped_server;
use lagoon::lease::Leases;
use lagoon::tank::Tank;
use serde::Deserialize;

const PAGER: &str = "svc-lss-pager";

#[derive(Deserialize)]
struct Alarm {
    alarm_id: String,
    org_id: String,
    exhibit: String,
    severity: u8,
    text: String,
}

pub struct AlarmDesk {
    alarm_dedup: Tank,
    leases: Leases,
    pager: crate::pager::Pager,
}

impl AlarmDesk {
    pub async fn run(&self, mut consumer: Consumer) -> Result<(), lagoon::Error> {
        while let Some(parcel) = consumer.next().await {
            match self.handle(&parcel).await {
                Ok(()) => parcel.ack().await?,
                Err(e) => {
                    tracing::error!(alarm = %parcel.id(), error = %e, "alarm handling failed");
                    parcel.nack().await?;
                }
            }
        }
        Ok(())
    }

    async fn handle(&self, parcel: &Parcel) -> Result<(), lagoon::Error> {
        let alarm: Alarm = serde_json::from_slice(parcel.body())?;
        let slot = scoped_server(&alarm.org_id, PAGER, "lss.page", &alarm.alarm_id)?;
        if self.alarm_dedup.exists(slot.storage_key()).await? {
            return Ok(());
        }
        self.pager.page(&alarm.exhibit, alarm.severity, &alarm.text).await?;
        self.alarm_dedup.put_ttl(slot.storage_key(), b"paged", Duration::from_secs(6 * 3600)).await?;

        if alarm.severity >= 4 {
            let lease = self.leases.acquire(&format!("escalate:{}", alarm.exhibit), Duration::from_secs(900)).await?;
            self.pager.escalate(&alarm.exhibit, &alarm.text).await?;
            self.leases.release(lease).await?;
        }
        Ok(())
    }
}
