//! Symbolic animal adoptions ("adopt a sea otter"): `POST /v1/adoptions`.

use std::fmt;
use std::time::Duration;

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::blob::Blobs;
use lagoon::tank::Tank;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::extractors::Caller;

const ROUTE: &str = "adoptions.create";

#[derive(Deserialize)]
pub struct AdoptionRequest {
    animal_id: String,
    package: Package,
    gift_recipient: Option<String>,
    amount_cents: u32,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
enum Package {
    Digital,
    Plush,
    Keeper,
}

/// Where a finished adoption is remembered so a retried submit is answered
/// with the first response.
struct AdoptionSlot<'a> {
    org_id: &'a str,
    user_id: &'a str,
    key: &'a str,
}

impl fmt::Display for AdoptionSlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}/{}", self.org_id, self.user_id, ROUTE, self.key)
    }
}

pub struct AdoptionDesk {
    pub replays: Tank,
    pub certificates: Blobs,
    pub gifts: crate::gifts::GiftProcessor,
}

pub async fn adopt(
    visit: Visit,
    Shared(desk): Shared<AdoptionDesk>,
    caller: Caller,
    Json(req): Json<AdoptionRequest>,
) -> Result<Reply, Fault> {
    let Some(key) = visit.header("idempotency-key") else {
        return Err(Fault::bad_request("Idempotency-Key required"));
    };
    let slot = AdoptionSlot { org_id: &caller.org_id, user_id: &caller.user_id, key };
    let storage_key = slot.to_string();
    if let Some(done) = desk.replays.get(&storage_key).await? {
        return Ok(Reply::bytes(Status::OK, done).replayed());
    }

    let receipt = desk
        .gifts
        .charge(&caller.org_id, &caller.user_id, req.amount_cents)
        .await?;
    let pdf = crate::certificates::render(&req.animal_id, req.package as u8, &receipt.donor_name);
    let path = store_certificate(&desk.certificates, &caller.org_id, pdf).await?;

    let body = serde_json::json!({
        "adoption": receipt.id,
        "certificate": path,
        "recipient": req.gift_recipient,
        "title": format!("Adoption certificate for {}", req.animal_id),
    });
    let bytes = serde_json::to_vec(&body).map_err(Fault::internal)?;
    desk.replays
        .put_ttl(&storage_key, &bytes, Duration::from_secs(86_400))
        .await?;
    Ok(Reply::bytes(Status::CREATED, bytes))
}

/// Certificates are content-addressed so the mail job can dedupe attachments.
async fn store_certificate(blobs: &Blobs, org_id: &str, pdf: Vec<u8>) -> Result<String, Fault> {
    let digest = Sha256::digest(&pdf);
    let path = format!("certificates/{}/{:x}.pdf", org_id, digest);
    blobs.put(&path, pdf).await?;
    Ok(path)
}
