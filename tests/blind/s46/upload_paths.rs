use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct BlobStore {
    objects: RwLock<BTreeMap<String, Vec<u8>>>,
}

impl BlobStore {
    pub fn put_upload(&self, contents: Vec<u8>) -> String {
        let path = format!("blobs/{}", hex::encode(Sha256::digest(&contents)));
        self.objects.write().unwrap().insert(path.clone(), contents);
        path
    }

    pub fn profile_cache_key(&self, user_id: u64) -> String {
        format!("user:{}:profile", user_id)
    }
}
