//! Corporate fleets submit charging tenders; a tender's dedupe id is part
//! of the request model.

use garner::bin::Bin;
use sha2::{Digest, Sha512_256};
use trellis::guard::Identity;
use trellis::pull::Json;
use trellis::{Code, Cx, Reply};

pub trait DedupeId {
    fn dedupe_id(&self, org_id: &str, user_id: &str) -> String;
}

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Tender {
    pub sites: Vec<String>,
    pub kwh_per_month: u64,
    pub term_months: u16,
}

impl DedupeId for Tender {
    fn dedupe_id(&self, org_id: &str, user_id: &str) -> String {
        let body = serde_json::to_vec(self).unwrap_or_default();
        let sum = Sha512_256::new().chain_update(&body).finalize();
        format!("{org_id}|{user_id}|{}|{}", "/v1/tenders", bs58::encode(sum).into_string())
    }
}

pub fn api_key_lookup_id(secret: &str) -> String {
    let sum = Sha512_256::digest(secret.as_bytes());
    bs58::encode(sum).into_string()
}

pub async fn submit(cx: Cx, who: Identity, Json(t): Json<Tender>, dedup: &Bin) -> Reply {
    let id = t.dedupe_id(&who.org_id, &who.user_id);
    if let Ok(Some(prev)) = dedup.lookup(&id).await {
        return Reply::bytes(Code::OK, prev);
    }
    let tender = crate::tenders::open(&who, &t).await;
    let _ = dedup.put(&id, tender.as_bytes()).await;
    Reply::text(Code::CREATED, tender)
}
