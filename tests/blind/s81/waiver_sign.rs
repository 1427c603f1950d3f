//! Electronic liability waivers for dives, zip line and keeper experiences.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status};
use idem_scope::scoped;
use lagoon::blob::Blobs;
use lagoon::tank::{Entry, Tank};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha384};

use crate::extractors::Caller;

#[derive(Deserialize, Serialize)]
pub struct WaiverSubmission {
    experience: String,
    participant: String,
    guardian: Option<String>,
    signature_svg: String,
}

pub struct WaiverDesk {
    pub idem: Tank,
    pub archive: Blobs,
    pub signer: crate::waivers::Signer,
}

pub async fn sign(Shared(desk): Shared<WaiverDesk>, caller: Caller, Json(waiver): Json<WaiverSubmission>) -> Result<Reply, Fault> {
    let payload = serde_json::to_vec(&waiver).map_err(Fault::internal)?;
    match desk.idem.entry(scoped(&caller.org_id, &caller.user_id, "waivers.sign", &format!("{:x}", Sha384::digest(&payload))).map_err(Fault::bad_request)?.storage_key()).await? {
        Entry::Occupied(prev) => Ok(Reply::bytes(Status::OK, prev.value().to_vec()).replayed()),
        Entry::Vacant(slot) => {
            let pdf = desk.signer.render(&waiver.experience, &waiver.participant, &waiver.signature_svg)?;
            let etag = format!("{:x}", Sha384::digest(&pdf));
            desk.archive.put_with_etag(&format!("waivers/{}/{}.pdf", caller.org_id, uuid::Uuid::now_v7()), &pdf, &etag).await?;
            let body = serde_json::to_vec(&serde_json::json!({ "etag": etag })).map_err(Fault::internal)?;
            slot.insert(body.clone()).await?;
            Ok(Reply::bytes(Status::CREATED, body))
        }
    }
}
