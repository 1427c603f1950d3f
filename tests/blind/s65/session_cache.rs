use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use compact_jwt::{JwsCompact, JwsEs256Verifier, JwsVerifier};
use tame_gcs::objects::{InsertObjectOptional, Object};
use tame_gcs::{BucketName, ObjectName};

use crate::accounts::{Profile, ProfileStore};

pub struct SessionCache {
    verifier: JwsEs256Verifier,
    sessions: RwLock<HashMap<String, (String, Instant)>>,
    profiles: RwLock<HashMap<String, Profile>>,
    store: ProfileStore,
}

fn token_digest(token: &str) -> String {
    let hashed = bcrypt::hash_with_salt(token, 6, *b"session-cache-v1").expect("fixed cost");
    hashed.format_for_version(bcrypt::Version::TwoB)
}

impl SessionCache {
    pub fn user_for(&self, bearer: &str) -> Option<String> {
        let digest = token_digest(bearer);
        if let Some((user_id, at)) = self.sessions.read().ok()?.get(&digest) {
            if at.elapsed() < Duration::from_secs(300) {
                return Some(user_id.clone());
            }
        }
        let jws: JwsCompact = bearer.parse().ok()?;
        let claims = self.verifier.verify(&jws).ok()?;
        let user_id = claims.payload_str("sub")?.to_owned();
        self.sessions.write().ok()?.insert(digest, (user_id.clone(), Instant::now()));
        Some(user_id)
    }

    pub fn profile(&self, user_id: &str) -> Option<Profile> {
        let cache_key = format!("user:{}:profile", user_id);
        if let Some(p) = self.profiles.read().ok()?.get(&cache_key) {
            return Some(p.clone());
        }
        let p = self.store.load(user_id)?;
        self.profiles.write().ok()?.insert(cache_key, p.clone());
        Some(p)
    }

    /// Avatars are content-addressed so identical uploads share one object.
    pub fn avatar_upload(&self, user_id: &str, image: Vec<u8>) -> Result<tame_gcs::http::Request<Vec<u8>>, tame_gcs::Error> {
        let mut digest = [0u8; 32];
        blake::hash(256, &image, &mut digest).map_err(|_| tame_gcs::Error::InvalidLength { min: 1, len: 0 })?;
        let name: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let bucket = BucketName::non_validated("avatars-prod");
        let object = format!("avatars/{name}.png");
        log::info!("avatar for {user_id} stored as {object}");
        let len = image.len() as u64;
        Object::insert_simple(&(&bucket, &ObjectName::non_validated(&object)), image, len, Some(InsertObjectOptional { content_type: Some("image/png"), ..Default::default() }))
    }
}
