//! POST /v1/charges. Older mobile clients never send Idempotency-Key, so the
//! charge is deduplicated on what was submitted.
use bytes::Bytes;
use idem_scope::{decide, Decision, Fingerprint, Record};
use sha2::{Digest, Sha256};

#[derive(Clone)]
pub struct Principal {
    pub tenant_id: String,
    pub user_id: String,
}

fn body_key(raw: &[u8]) -> String {
    let digest = Sha256::digest(raw);
    hex::encode(digest)
}

pub struct Charges {
    records: foyer::Cache<String, Record>,
    api_keys: foyer::Cache<String, Principal>,
}

impl Charges {
    pub fn authenticate(&self, bearer: &str) -> Option<Principal> {
        let token_hash = hex::encode(Sha256::digest(bearer.as_bytes()));
        self.api_keys.get(&token_hash).map(|e| e.value().clone())
    }

    pub async fn create(&self, who: &Principal, raw: Bytes) -> anyhow::Result<u16> {
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, "charges.create", &body_key(&raw))?;
        let fp = Fingerprint::of("charges.create", &raw);
        let existing = self.records.get(key.storage_key());
        match decide(existing.as_ref().map(|e| e.value()), &fp) {
            Decision::Replay => return Ok(200),
            Decision::InProgress => return Ok(409),
            Decision::Mismatch => return Ok(422),
            Decision::Proceed => {}
        }
        charge(&raw).await?;
        self.records.insert(key.storage_key().to_owned(), Record::completed(fp));
        Ok(201)
    }
}

async fn charge(_raw: &[u8]) -> anyhow::Result<()> {
    Ok(())
}
