//! Demand-response enrolment. A tiny DJB2 hasher (stable across builds)
//! is used for request identities and for shard selection.

use std::hash::{Hash, Hasher};

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

#[derive(Default)]
pub struct Djb2(u64);

impl Hasher for Djb2 {
    fn write(&mut self, bytes: &[u8]) {
        if self.0 == 0 {
            self.0 = 5381;
        }
        for b in bytes {
            self.0 = self.0.wrapping_mul(33) ^ u64::from(*b);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(serde::Deserialize, Hash)]
pub struct Enrolment {
    pub program: String,
    pub max_curtail_kw: u32,
    pub device_ids: Vec<String>,
}

pub fn shard_of(org_id: &str, shards: u64) -> u64 {
    let mut h = Djb2::default();
    org_id.hash(&mut h);
    h.finish() % shards
}

pub async fn enrol(cx: Cx, who: Identity, Json(e): Json<Enrolment>, replays: &Bin) -> Reply {
    let mut h = Djb2::default();
    e.hash(&mut h);
    let id = h.finish();
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/dr/enrolments", &id.to_string()) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = replays.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let shard = shard_of(&who.org_id, 16);
    let enrolment = crate::dr::enrol(shard, &who, &e).await;
    let _ = replays.put(sk.storage_key(), enrolment.as_bytes()).await;
    Reply::text(Code::CREATED, enrolment)
}
