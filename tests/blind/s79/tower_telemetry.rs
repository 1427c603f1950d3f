//! Transmitter telemetry: remote-control units at the tower sites report
//! alarms over the uplink queue; the NOC opens an incident for each new
//! alarm and a site engineer is paged.

use std::time::Duration;

use spool::cart::Cart;
use spool::lease::Leases;
use spool::uplink::Uplink;
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::sites::SiteController;

#[derive(serde::Deserialize)]
pub struct Alarm {
    pub alarm_id: String,
    pub site_id: String,
    pub channel: String,
    pub severity: u8,
    pub reading: f32,
}

pub struct Noc {
    pub alarms: Cart,
    pub incidents: Cart,
    pub leases: Leases,
    pub site_control: Mutex<SiteController>,
}

impl Noc {
    pub async fn run(&self, uplink: Uplink) {
        while let Some(packet) = uplink.next().await {
            match self.on_alarm(packet.body()).await {
                Ok(()) => packet.ack().await,
                Err(e) => {
                    tracing::warn!(error = %e, delivery = %packet.id(), "alarm not processed");
                    packet.nack().await;
                }
            }
        }
    }

    async fn on_alarm(&self, body: &[u8]) -> Result<(), spool::Error> {
        let alarm: Alarm = serde_json::from_slice(body).map_err(spool::Error::decode)?;
        if self.alarms.exists(&alarm.alarm_id).await? {
            return Ok(());
        }
        self.alarms.put(&alarm.alarm_id, body).await?;

        let incident_id = Uuid::new_v4().to_string();
        self.incidents.put(&incident_id, alarm.site_id.as_bytes()).await?;

        if alarm.severity >= 4 {
            let _site_lease = self.leases.try_acquire(&alarm.site_id, Duration::from_secs(120)).await?;
            let mut control = self.site_control.lock().await;
            control.switch_to_backup(&alarm.site_id, &alarm.channel).await?;
            crate::paging::page_site_engineer(&alarm.site_id, &incident_id).await?;
        }
        Ok(())
    }
}
