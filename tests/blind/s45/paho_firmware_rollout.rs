use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use paho_mqtt as mqtt;

type Slot = (String, String, String, String);

pub struct Rollout {
    applied: Mutex<HashMap<Slot, String>>,
    fleet: FleetApi,
    cli: mqtt::Client,
}

#[derive(serde::Deserialize)]
pub struct OtaDelivery {
    pub delivery_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub device_id: String,
    pub image: String,
}

impl Rollout {
    /// Operator-triggered update from the console API (`headers` are the HTTP request headers).
    pub fn push_update(&self, headers: &[(String, String)], tenant_id: &str, user_id: &str, device_id: &str, image: &str) -> Result<String, RolloutError> {
        let push_ref = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.clone()).ok_or(RolloutError::MissingKey)?;
        let slot: Slot = (tenant_id.to_owned(), user_id.to_owned(), "firmware.push".to_owned(), push_ref);
        let mut applied = self.applied.lock().map_err(|_| RolloutError::Poisoned)?;
        if let Some(job) = applied.get(&slot) {
            return Ok(job.clone());
        }
        let job = self.fleet.flash(tenant_id, device_id, image)?;
        applied.insert(slot, job.clone());
        Ok(job)
    }

    /// OTA deliveries arrive from the broker at least once.
    pub fn consume(&self) -> Result<(), RolloutError> {
        let rx = self.cli.start_consuming();
        self.cli.subscribe("ota/deliveries", mqtt::QOS_1)?;
        for msg in rx.iter().flatten() {
            let d: OtaDelivery = match serde_json::from_slice(msg.payload()) {
                Ok(d) => d,
                Err(_) => continue,
            };
            let job = self.fleet.flash(&d.tenant_id, &d.device_id, &d.image)?;
            let mut applied = self.applied.lock().map_err(|_| RolloutError::Poisoned)?;
            applied.insert((d.tenant_id.clone(), d.user_id.clone(), "firmware.push".to_owned(), d.delivery_id.clone()), job);
        }
        std::thread::sleep(Duration::from_millis(10));
        Ok(())
    }
}
