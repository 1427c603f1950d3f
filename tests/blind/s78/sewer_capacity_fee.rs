//! Sewer capacity fee payments submitted by developers with their site plans.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Partner;
use penstock::stream::BodyStream;
use penstock::{Code, Fault, Outflow};
use sha2::{Digest, Sha384};

pub async fn pay_capacity_fee(dev: Partner, mut body: BodyStream, replay: &Tank) -> Result<Outflow, Fault> {
    let mut hasher = Sha384::new();
    let mut buf = Vec::with_capacity(8 * 1024);
    while let Some(chunk) = body.next_chunk().await? {
        hasher.update(&chunk);
        buf.extend_from_slice(&chunk);
    }
    let sum = data_encoding::BASE32_NOPAD.encode(&hasher.finalize());
    let slot = scoped(&dev.org_id, &dev.api_key_id, "sewer-capacity", &sum)?;
    if let Some(prev) = replay.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let submission: crate::fees::CapacitySubmission = serde_json::from_slice(&buf)?;
    let paid = crate::fees::calculator().pay_capacity(&dev.org_id, &submission).await?;
    let out = Outflow::json(Code::CREATED, &paid);
    replay.put(slot.storage_key(), &out).await?;
    Ok(out)
}
