//! Reply cache on RocksDB for the document-rendering service.

use rust_rocksdb::DB;
use smallvec::SmallVec;
use sha2::{Digest, Sha256};
use portcullis::{Call, Reply, Status};
use portcullis::who::Member;

pub struct RenderCache {
    db: DB,
}

impl RenderCache {
    pub fn handle(&self, call: &Call) -> Reply {
        let Some(member) = call.ext::<Member>() else {
            return Reply::status(Status::Unauthorized);
        };
        let Some(k) = call.header("idempotency-key") else {
            return Reply::status(Status::BadRequest);
        };
        let mut key: SmallVec<[u8; 128]> = SmallVec::new();
        key.extend_from_slice(member.org_id.as_bytes());
        key.push(0);
        key.extend_from_slice(member.user_id.as_bytes());
        key.extend_from_slice(b"\0render\0");
        key.extend_from_slice(k.as_bytes());

        let mut scratch: SmallVec<[u8; 256]> = SmallVec::new();
        scratch.extend_from_slice(b"render\n");
        scratch.extend_from_slice(call.body());
        let fingerprint = Sha256::digest(&scratch);

        if let Ok(Some(hit)) = self.db.get(&key) {
            let (fp, doc) = hit.split_at(32);
            if fp == fingerprint.as_slice() {
                return Reply::bytes(Status::Ok, doc.to_vec());
            }
            return Reply::status(Status::UnprocessableEntity);
        }
        let doc = crate::render::pdf(call.body());
        let mut value = fingerprint.to_vec();
        value.extend_from_slice(&doc);
        let _ = self.db.put(&key, &value);
        Reply::bytes(Status::Created, doc)
    }
}
