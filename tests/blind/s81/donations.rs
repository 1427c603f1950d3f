//! Conservation fund donations from the "Save the Reef" campaign page.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use stable_hash::{crypto_stable_hash, StableHash};

use crate::extractors::Caller;

/// Anything that can name its own replay slot.
trait ReplayId: StableHash {
    fn replay_id(&self) -> String {
        crypto_stable_hash(self).iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[derive(Deserialize, Serialize, StableHash)]
pub struct DonationRequest {
    campaign: String,
    amount_cents: u32,
    monthly: bool,
    dedication: Option<String>,
}

impl ReplayId for DonationRequest {}

pub struct Fund {
    pub dedup: Tank,
    pub donors: Tank,
    pub processor: crate::payments::Processor,
}

pub async fn donate(Shared(fund): Shared<Fund>, caller: Caller, Json(gift): Json<DonationRequest>) -> Result<Reply, Fault> {
    // The campaign widget posts without an Idempotency-Key; the replay slot
    // is derived from what the donor submitted.
    let slot = scoped(&caller.org_id, &caller.user_id, "donations.create", &gift.replay_id()).map_err(Fault::bad_request)?;
    if let Some(prev) = fund.dedup.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }

    let donor_ref = format!("{:x}", Sha256::digest(caller.user_id.as_bytes()));
    let donor = fund.donors.get(&donor_ref).await?;
    let dedication = gift.dedication.clone().unwrap_or_default();
    let charge = fund
        .processor
        .charge(&caller.org_id, gift.amount_cents, gift.monthly, &dedication, donor.is_some())
        .await?;
    let body = serde_json::to_vec(&charge).map_err(Fault::internal)?;
    fund.dedup.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
