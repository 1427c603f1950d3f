//! Meter reads: LoRaWAN uplinks forwarded by the network server's HTTP
//! integration, plus manual reads customers submit while an endpoint is offline.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceInfo {
    pub dev_eui: String,
    pub application_id: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UplinkEvent {
    /// Network-server event id of this (deduplicated) uplink.
    pub deduplication_id: String,
    pub time: String,
    pub device_info: DeviceInfo,
    pub f_cnt: u32,
    pub data: String,
}

pub async fn manual_read(intake: Intake, who: Customer, reads: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&who.tenant_id, &who.user_id, "meter-read", key)?;
    if let Some(prev) = reads.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let value: u64 = intake.query("reading").and_then(|r| r.parse().ok()).ok_or_else(|| Fault::status(Code::BAD_REQUEST, "reading"))?;
    let read = crate::ami::reads().record_manual(&who.tenant_id, &who.user_id, value).await?;
    let out = Outflow::json(Code::CREATED, &read);
    reads.put(slot.storage_key(), &out).await?;
    Ok(out)
}

pub async fn on_uplink(intake: Intake, reads: &Tank) -> Result<Outflow, Fault> {
    let evt: UplinkEvent = intake.json()?;
    let dev = crate::ami::endpoints().by_dev_eui(&evt.device_info.dev_eui).await?;
    let slot = scoped(&dev.tenant_id, &dev.user_id, "meter-read", &evt.deduplication_id)?;
    if reads.exists(slot.storage_key()).await? {
        return Ok(Outflow::status(Code::OK, "duplicate uplink"));
    }
    let payload = data_encoding::BASE64.decode(evt.data.as_bytes())?;
    let read = crate::ami::reads().record_uplink(&dev, evt.f_cnt, &payload, &evt.time).await?;
    let out = Outflow::json(Code::OK, &read);
    reads.put(slot.storage_key(), &out).await?;
    Ok(out)
}
