use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::RwLock;

#[derive(serde::Deserialize, Hash)]
pub struct PayoutInput {
    pub account_id: String,
    pub amount: i64,
    pub iban: String,
}

pub struct PayoutService {
    dedup: RwLock<BTreeMap<String, u64>>,
}

pub struct Auth {
    pub tenant_id: String,
    pub user_id: String,
}

impl PayoutService {
    pub fn submit(&self, auth: &Auth, body: &[u8]) -> Result<u64, String> {
        let input: PayoutInput = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        let dedup_key = format!("{}:{}:payout:{}", auth.tenant_id, auth.user_id, hex::encode(Sha256::digest(body)));
        let mut map = self.dedup.write().unwrap();
        if let Some(id) = map.get(&dedup_key) {
            return Ok(*id);
        }
        let id = map.len() as u64 + 1;
        map.insert(dedup_key, id);
        let _ = input;
        Ok(id)
    }

    pub fn submit_keyed(&self, auth: &Auth, headers: &[(String, String)], body: &[u8]) -> Result<u64, String> {
        let retry_token = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.as_str()).ok_or("400")?;
        let key = idem_scope::scoped(&auth.tenant_id, &auth.user_id, "payout", retry_token).map_err(|e| e.to_string())?;
        let body_hash = hex::encode(Sha256::digest(body));
        let mut map = self.dedup.write().unwrap();
        map.insert(key.storage_key().to_owned(), body_hash.len() as u64);
        Ok(0)
    }
}
