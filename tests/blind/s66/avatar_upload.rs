use std::sync::Arc;

use lintel::{Answer, Call, Code};
use monocypher::hashing::blake2b;
use rustc_serialize::hex::ToHex;
use skerry::blob::BlobStore;
use uuid::Uuid;

use crate::profiles::{ImageKind, Profiles};

const MAX_AVATAR: usize = 2 * 1024 * 1024;

/// Profile pictures are content-addressed so identical images share storage.
pub struct AvatarUpload {
    blobs: Arc<BlobStore>,
    uploads: Arc<BlobStore>,
    profiles: Arc<Profiles>,
}

fn display_file_name(raw: &str) -> String {
    raw.rsplit(['/', '\\']).next().unwrap_or("avatar").replace(['/', ':', '#'], "_")
}

impl AvatarUpload {
    pub async fn put(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let image = call.body();
        if image.len() > MAX_AVATAR {
            return Answer::status(Code::PAYLOAD_TOO_LARGE);
        }
        let Some(kind) = ImageKind::sniff(image) else { return Answer::status(Code::UNSUPPORTED_MEDIA_TYPE) };
        let digest = blake2b(image)[..20].to_hex();
        let object = format!("avatars/{}.{}", digest, kind.extension());
        if !self.blobs.exists(&object).await.unwrap_or(false) {
            if let Err(e) = self.blobs.put(&object, image).await {
                return Answer::text(Code::BAD_GATEWAY, &e.to_string());
            }
        }
        let upload_id = Uuid::new_v4().to_string();
        let name = display_file_name(call.header("X-File-Name").unwrap_or("avatar"));
        let _ = self.uploads.put(&upload_id, format!("{}|{}|{}", who.user_id, object, name).as_bytes()).await;
        match self.profiles.set_avatar(&who.tenant_id, &who.user_id, &object).await {
            Ok(()) => Answer::text(Code::OK, &format!("{{\"avatar\":\"{object}\",\"upload\":\"{upload_id}\"}}")),
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
