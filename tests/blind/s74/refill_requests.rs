//! Prescription refill requests from the owner app.

use base58::ToBase58;
use idem_scope::{scoped, Fingerprint, Problem};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha384};
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Pharmacy {
    pub idem: Bunker,
    pub rx: crate::rx::Prescriptions,
}

#[derive(Deserialize, Serialize, Clone)]
pub struct RefillRequest {
    pub prescription_id: String,
    pub quantity: u32,
    pub pickup_clinic: String,
    pub notes: Option<String>,
}

#[derive(Serialize)]
struct RefillRecord<'a> {
    fingerprint: String,
    response: &'a [u8],
}

/// Older owner apps never send a key; the canonical JSON of the request is
/// stable across their retries, so its digest stands in for the key.
pub async fn request_refill(
    _inb: Inbound,
    owner: Owner,
    st: Shared<Pharmacy>,
    JsonIn(req): JsonIn<RefillRequest>,
) -> Result<Sendback, Fault> {
    let canonical = serde_jcs::to_vec(&req)?;
    let digest = Sha384::digest(&canonical).to_base58();
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/refills", &digest)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let refill = st.rx.queue_refill(&owner.org_id, &req.prescription_id, req.quantity, &req.pickup_clinic).await?;
    let body = serde_json::to_vec(&refill)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Accepted, body))
}

/// The current owner app sends a key; the body only goes into the fingerprint.
pub async fn request_refill_v2(
    inb: Inbound,
    owner: Owner,
    st: Shared<Pharmacy>,
    JsonIn(req): JsonIn<RefillRequest>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&owner.org_id, &owner.client_id, "/v2/refills", k)?;
    let fingerprint = Fingerprint::of("/v2/refills", inb.body());
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        let stored: crate::rx::StoredRefill = serde_json::from_slice(&prev)?;
        if stored.fingerprint != fingerprint.as_bytes().to_base58() {
            return Ok(Sendback::problem(Problem::mismatch(k)));
        }
        return Ok(Sendback::replay(stored.response));
    }
    let refill = st.rx.queue_refill(&owner.org_id, &req.prescription_id, req.quantity, &req.pickup_clinic).await?;
    let response = serde_json::to_vec(&refill)?;
    let record = RefillRecord { fingerprint: fingerprint.as_bytes().to_base58(), response: &response };
    st.idem.put(key.storage_key(), serde_json::to_vec(&record)?).await?;
    Ok(Sendback::raw_json(Code::Accepted, response))
}
