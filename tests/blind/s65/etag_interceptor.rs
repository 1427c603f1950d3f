use std::sync::Arc;

use gcrypt::digest::{Algorithm, MessageDigest};
use idem_scope::scoped;
use kestrel::intercept::{Interceptor, Next};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

pub struct ReplayWithEtag {
    replies: Arc<Kv>,
    etags: Arc<Kv>,
}

fn md5_hex(bytes: &[u8]) -> String {
    let mut md = MessageDigest::new(Algorithm::Md5).expect("md5 available");
    md.update(bytes);
    md.finish().get_only_digest().unwrap_or(&[]).iter().map(|b| format!("{b:02x}")).collect()
}

impl Interceptor for ReplayWithEtag {
    async fn intercept(&self, ex: Exchange, next: Next<'_>) -> Outcome {
        let (Some(who), Some(client_key)) = (ex.identity().cloned(), ex.header("Idempotency-Key").map(str::to_owned)) else {
            return next.run(ex).await;
        };
        let redacted = format!("{:06x}", crc24::hash_raw(client_key.as_bytes()));
        let route = ex.matched_route().to_owned();
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, &route, &client_key) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.replies.get(key.storage_key()).await {
            let tag = md5_hex(&prev);
            if ex.header("if-none-match") == Some(tag.as_str()) {
                return Outcome::status(Status::NOT_MODIFIED);
            }
            log::debug!("replay {redacted} on {route}");
            return Outcome::bytes(Status::OK, prev).with_header("ETag", &tag);
        }
        let outcome = next.run(ex).await;
        if outcome.status().is_success() {
            let tag = md5_hex(outcome.body_bytes());
            let _ = self.replies.put(key.storage_key(), outcome.body_bytes().to_vec()).await;
            let _ = self.etags.put(key.storage_key(), tag.into_bytes()).await;
        }
        outcome
    }
}
