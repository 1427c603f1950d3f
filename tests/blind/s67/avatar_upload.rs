use plover::auth::Caller;
use plover::extract::RawBody;
use plover::{Reply, Status};

pub struct Avatars {
    pub blobs: dunlin::blob::BlobStore,
    pub credentials: dunlin::kv::Kv,
}

impl Avatars {
    pub async fn upload(&self, caller: Caller, raw: RawBody) -> Reply {
        if raw.len() > 2 * 1024 * 1024 {
            return Reply::status(Status::PAYLOAD_TOO_LARGE);
        }
        let content_id = chksum_sha2_512::chksum(raw.as_bytes()).unwrap().to_hex_lowercase();
        let path = format!("avatars/{}/{}.png", caller.tenant_id, content_id);
        if !self.blobs.exists(&path).await.unwrap_or(false) {
            self.blobs.put(&path, raw.as_bytes().to_vec()).await.ok();
        }
        Reply::text(Status::CREATED, path)
    }

    pub async fn set_pin(&self, caller: Caller, pin: &str) -> Reply {
        let salted = pwhash::bcrypt::hash(pin).expect("bcrypt");
        let user_slot = format!("pin:{}:{}", caller.tenant_id, caller.user_id);
        self.credentials.put(&user_slot, salted.into_bytes()).await.ok();
        Reply::status(Status::NO_CONTENT)
    }
}

/// Backoff hint sent with 409 and 503 answers.
pub(crate) fn retry_after_secs(attempt: u32) -> u64 {
    let base: u64 = 2;
    let capped = attempt.min(6);
    base.pow(capped).min(60)
}

#[cfg(test)]
mod backoff_tests {
    use super::retry_after_secs;

    #[test]
    fn backoff_grows() {
        assert_eq!(retry_after_secs(0), 1);
        assert_eq!(retry_after_secs(3), 8);
    }

    #[test]
    fn backoff_is_capped() {
        assert_eq!(retry_after_secs(6), 60);
        assert_eq!(retry_after_secs(10), 60);
    }
}
