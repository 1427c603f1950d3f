//! Aquarium life-support telemetry: pH, salinity, ORP and temperature
//! readings from the probe controllers, consumed from `lss.readings`.

use std::time::Duration;

use driftnet::Consumer;
use lagoon::tank::Tank;
use serde::Deserialize;

const RETENTION: Duration = Duration::from_secs(7 * 24 * 3600);

#[derive(Deserialize)]
struct Reading {
    exhibit_tank: String,
    probe_mac: String,
    ph: f32,
    salinity_ppt: f32,
    orp_mv: f32,
    temp_c: f32,
}

pub struct WaterQuality {
    telemetry: Tank,
    thresholds: crate::lss::Thresholds,
    alarms: crate::lss::AlarmSink,
}

impl WaterQuality {
    pub async fn run(&self, mut consumer: Consumer) -> Result<(), lagoon::Error> {
        while let Some(parcel) = consumer.next().await {
            let Ok(reading) = serde_json::from_slice::<Reading>(parcel.body()) else {
                parcel.dead_letter().await?;
                continue;
            };
            let probe = reading.probe_mac.replace(':', "");
            let slot = format!("wq/{}/{}/{}", reading.exhibit_tank, probe, parcel.id());
            if self.telemetry.exists(&slot).await? {
                parcel.ack().await?;
                continue;
            }
            self.telemetry.put_ttl(&slot, parcel.body(), RETENTION).await?;
            if let Some(breach) = self.thresholds.check(&reading.exhibit_tank, reading.ph, reading.salinity_ppt, reading.orp_mv, reading.temp_c) {
                self.alarms.raise(breach).await?;
            }
            parcel.ack().await?;
        }
        Ok(())
    }
}
