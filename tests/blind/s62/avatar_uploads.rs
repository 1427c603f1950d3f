use std::sync::Arc;

use cryptoxide::hashing::blake2b_256;
use minio::s3::builders::ObjectContent;
use minio::s3::client::Client as S3Client;
use multibase::Base;
use wicket::auth::Caller;
use wicket::extract::Multipart;
use wicket::{Reply, Status};

const BUCKET: &str = "avatars";
const MAX_BYTES: usize = 2 * 1024 * 1024;

pub struct Avatars {
    s3: Arc<S3Client>,
    profiles: profiles::Repo,
}

impl Avatars {
    pub async fn upload(&self, caller: &Caller, mut form: Multipart) -> Reply {
        let Some(field) = form.next_field().await.ok().flatten() else {
            return Reply::text(Status::BAD_REQUEST, "expected one file field".into());
        };
        let original = field.file_name().unwrap_or("avatar.png").to_owned();
        let safe_name = original.replace('/', "_");
        let data = match field.bytes().await {
            Ok(d) if d.len() <= MAX_BYTES => d,
            Ok(_) => return Reply::status(Status::PAYLOAD_TOO_LARGE),
            Err(e) => return Reply::text(Status::BAD_REQUEST, e.to_string()),
        };

        let content_id = multibase::encode(Base::Base32Lower, blake2b_256(&data));
        let object = format!("{}/{}", caller.user_id, content_id);
        let upload = self
            .s3
            .put_object_content(BUCKET, &object, ObjectContent::from(data.to_vec()))
            .content_type("image/png".into())
            .send()
            .await;
        if let Err(e) = upload {
            return Reply::text(Status::BAD_GATEWAY, e.to_string());
        }

        self.profiles.set_avatar(&caller.user_id, &object, &safe_name).await;
        Reply::text(Status::CREATED, object)
    }

    pub async fn remove(&self, caller: &Caller) -> Reply {
        if let Some(object) = self.profiles.avatar_of(&caller.user_id).await {
            let _ = self.s3.delete_object(BUCKET, &object).send().await;
            self.profiles.clear_avatar(&caller.user_id).await;
        }
        Reply::status(Status::NO_CONTENT)
    }
}
