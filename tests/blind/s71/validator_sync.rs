//! Validator (on-board card reader) configuration pushes. A depot technician
//! can push a config from the handheld; scheduled pushes come from the fleet
//! service with only the device certificate.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use wharf::badge::{DeviceCert, Operator};
use wharf::codec::Decode;
use wharf::{Answer, Code, Fault, Hail};

const IDEM_HEADER: &str = "Idempotency-Key";

#[derive(Decode)]
pub struct ConfigPush {
    pub profile: String,
    pub fare_table_version: u32,
}

#[derive(Decode)]
pub struct BatchAck {
    pub batch_no: u64,
    pub taps: u32,
}

pub struct ValidatorSync {
    pub bay: Bay,
    pub fleet: crate::fleet::FleetClient,
}

impl ValidatorSync {
    pub async fn push_config(&self, hail: Hail, cert: DeviceCert) -> Result<Answer, Fault> {
        let k = hail.header(IDEM_HEADER).ok_or_else(Problem::missing_key)?;
        let push: ConfigPush = hail.json()?;

        let actor = if let Some(op) = hail.badge::<Operator>() {
            op.actor.clone()
        } else {
            String::from("system")
        };
        let firmware = hail.header("X-Validator-Firmware").unwrap_or("unknown");

        let key = scoped(&cert.tenant_id, &actor, "validators.config", k)?;
        if let Some(prev) = self.bay.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let applied = self
            .fleet
            .apply_profile(&cert.device_id, &push.profile, push.fare_table_version, firmware)
            .await?;
        let body = wharf::codec::to_vec(&applied)?;
        self.bay.put(key.storage_key(), body.clone()).await?;
        Ok(Answer::bytes(Code::Ok, body))
    }

    pub async fn ack_batch(&self, hail: Hail, cert: DeviceCert) -> Result<Answer, Fault> {
        let k = hail.header(IDEM_HEADER).ok_or_else(Problem::missing_key)?;
        let ack: BatchAck = hail.json()?;
        let uploader = hail
            .badge::<Operator>()
            .map(|o| o.actor.clone())
            .unwrap_or_else(|| cert.client_id.clone());

        let key = scoped(&cert.tenant_id, &uploader, "validators.batch_ack", k)?;
        if self.bay.exists(key.storage_key()).await? {
            return Ok(Answer::status(Code::Ok));
        }
        self.fleet.ack_batch(&cert.device_id, ack.batch_no, ack.taps).await?;
        self.bay.put(key.storage_key(), b"acked".to_vec()).await?;
        Ok(Answer::status(Code::Accepted))
    }
}
