//! Souvenir photos: roaming photographers upload shots from the camera app
//! (content-addressed, so a re-upload after a flaky connection is free);
//! guests find them later by wristband.

use enclosure::extract::{RawBody, Shared};
use enclosure::pass::Staff;
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::blob::Blobs;
use lagoon::tank::Tank;
use sha2::{Digest, Sha256};

pub struct PhotoLab {
    pub blobs: Blobs,
    pub index: Tank,
}

pub async fn upload(visit: Visit, Shared(lab): Shared<PhotoLab>, photographer: Staff, RawBody(raw): RawBody) -> Result<Reply, Fault> {
    let wristband = visit.query("wristband").ok_or_else(|| Fault::bad_request("wristband"))?;
    let day = visit.query("day").unwrap_or("today");
    let digest = Sha256::digest(&raw);
    let object = format!("photos/{}/{}/{:x}.jpg", photographer.org_id, day, digest);
    if !lab.blobs.exists(&object).await? {
        lab.blobs.put(&object, raw.to_vec()).await?;
    }
    lab.index
        .append(&format!("photo-index:{}:{}", photographer.org_id, wristband), object.as_bytes())
        .await?;
    Ok(Reply::json(Status::CREATED, &serde_json::json!({ "object": object })))
}
