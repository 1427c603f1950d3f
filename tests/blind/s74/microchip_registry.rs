//! Microchip registration with the national pet registry.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Chips {
    pub idem: Bunker,
    pub registry: crate::registry::NationalRegistry,
}

#[derive(Deserialize)]
pub struct ChipIn {
    pub pet_id: String,
    pub chip_number: String,
    pub implanted_at: String,
}

pub async fn register_chip(
    inb: Inbound,
    staff: Staff,
    st: Shared<Chips>,
    JsonIn(req): JsonIn<ChipIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    // The scanner app prefixes keys with '#' when the chip was read by RFID.
    let mut chip_key = k.to_owned();
    chip_key.retain(|c| c != '#');
    let mut chip_number = req.chip_number.clone();
    chip_number.retain(|c| c.is_ascii_digit());

    let key = scoped(&staff.org_id, &staff.user_id, "/v1/microchips", &chip_key)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let reg = st.registry.register(&staff.org_id, &req.pet_id, &chip_number, &req.implanted_at).await?;
    let body = serde_json::to_vec(&reg)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
