//! Card charges. A retry must be byte-identical; the digest of the body is
//! computed once and reused.

use granary::silo::Silo;
use idem_scope::{scoped, Fingerprint, Problem};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use sha2::{Digest, Sha256};

pub struct ChargeDesk {
    pub records: Silo,
    pub tokens: Silo,
}

impl ChargeDesk {
    pub async fn charge(&self, call: Call) -> Reply {
        let Some(m) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
        let raw = call.body().to_vec();
        let api_token = call.header("authorization").unwrap_or_default();
        let token_digest = Sha256::digest(api_token.as_bytes());
        if self.tokens.get(&format!("{:x}", token_digest)).await.ok().flatten().is_none() {
            return Reply::status(Status::Unauthorized);
        }
        let digest = Sha256::digest(&raw);
        let key = match scoped(&m.org_id, &m.user_id, "charge", &format!("{:x}", digest)) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let fingerprint = Fingerprint::of("charge", &raw);
        if let Ok(Some(prev)) = self.records.get(key.storage_key()).await {
            return Reply::bytes(Status::Ok, prev);
        }
        let out = crate::psp::charge(&raw).await;
        let _ = self.records.put_fingerprint(key.storage_key(), fingerprint.as_bytes()).await;
        let _ = self.records.put(key.storage_key(), out.clone()).await;
        Reply::bytes(Status::Created, out)
    }
}
