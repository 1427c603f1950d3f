//! Transfers of a pet's record between owners (rehoming, family changes).

use easy_hasher::easy_hasher::raw_crc64;
use idem_scope::{scoped, Fingerprint, Problem};
use serde::Deserialize;
use silage::grid::{Grid, GridEntry};
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Transfers {
    pub grid: Grid,
    pub registry: crate::registry::PetRegistry,
}

#[derive(Deserialize)]
pub struct TransferIn {
    pub pet_id: String,
    pub new_owner_email: String,
    pub keep_history: bool,
}

pub async fn transfer_pet(
    inb: Inbound,
    owner: Owner,
    st: Shared<Transfers>,
    JsonIn(req): JsonIn<TransferIn>,
) -> Result<Sendback, Fault> {
    let crc = raw_crc64(inb.body().to_vec()).to_hex_string();
    match st.grid.entry(&owner.org_id, &owner.client_id, "/v1/pets/transfers", &crc).await? {
        GridEntry::Occupied(prev) => Ok(Sendback::replay(prev.value().to_vec())),
        GridEntry::Vacant(slot) => {
            let moved = st.registry.transfer(&owner.org_id, &req.pet_id, &req.new_owner_email, req.keep_history).await?;
            let body = serde_json::to_vec(&moved)?;
            slot.fill(body.clone()).await?;
            Ok(Sendback::raw_json(Code::Accepted, body))
        }
    }
}

/// v2: the app sends a key; the body checksum is only a fingerprint.
pub async fn transfer_pet_v2(
    inb: Inbound,
    owner: Owner,
    st: Shared<Transfers>,
    JsonIn(req): JsonIn<TransferIn>,
) -> Result<Sendback, Fault> {
    let k = inb.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&owner.org_id, &owner.client_id, "/v2/pets/transfers", k)?;
    let fingerprint = Fingerprint::of("/v2/pets/transfers", inb.body());
    let c = key.columns();
    match st.grid.entry(c.tenant_id, c.principal_id, c.route, key.storage_key()).await? {
        GridEntry::Occupied(prev) if prev.fingerprint() == fingerprint.as_bytes() => {
            Ok(Sendback::replay(prev.value().to_vec()))
        }
        GridEntry::Occupied(_) => Ok(Sendback::problem(Problem::mismatch(k))),
        GridEntry::Vacant(slot) => {
            let moved = st.registry.transfer(&owner.org_id, &req.pet_id, &req.new_owner_email, req.keep_history).await?;
            let body = serde_json::to_vec(&moved)?;
            slot.fill_with_fingerprint(body.clone(), fingerprint).await?;
            Ok(Sendback::raw_json(Code::Accepted, body))
        }
    }
}
