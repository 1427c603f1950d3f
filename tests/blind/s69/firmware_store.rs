//! Content-addressed storage for charger firmware images uploaded by the
//! hardware team.

use garner::blob::Blobs;
use sha2::{Digest, Sha224};
use trellis::guard::Identity;
use trellis::pull::Raw;
use trellis::{Code, Cx, Reply};

pub async fn upload_image(_cx: Cx, who: Identity, Raw(image): Raw, blobs: &Blobs) -> Reply {
    if !who.is_hardware_team {
        return Reply::status(Code::FORBIDDEN);
    }
    let digest = Sha224::digest(&image);
    let path = format!("firmware/{}.bin", bs58::encode(digest).into_string());
    if blobs.exists(&path).await.unwrap_or(false) {
        return Reply::text(Code::OK, path);
    }
    let _ = blobs.put(&path, image.to_vec()).await;
    Reply::text(Code::CREATED, path)
}

pub async fn rollout_manifest(charger_model: &str, blobs: &Blobs) -> Option<Vec<u8>> {
    let latest = blobs.get(&format!("firmware/latest/{charger_model}")).await.ok()??;
    let mut crc = crc64fast_nvme::Digest::new();
    crc.write(&latest);
    let check = crc.sum64();
    let mut out = latest;
    out.extend_from_slice(&check.to_be_bytes());
    Some(out)
}
