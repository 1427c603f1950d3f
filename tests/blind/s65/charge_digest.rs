use std::sync::Arc;

use gcrypt::digest::{Algorithm, MessageDigest};
use idem_scope::{scoped, Problem};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::accounts::ApiKeyDirectory;
use crate::billing::Gateway;

pub struct LegacyChargeApi {
    keys: Arc<ApiKeyDirectory>,
    replies: Arc<Kv>,
    gateway: Arc<Gateway>,
}

fn sha256_hex(bytes: &[u8]) -> Result<String, gcrypt::Error> {
    let mut md = MessageDigest::new(Algorithm::Sha256)?;
    md.update(bytes);
    let out = md.finish().get_only_digest().unwrap_or(&[]).to_vec();
    Ok(out.iter().map(|b| format!("{b:02x}")).collect())
}

impl LegacyChargeApi {
    /// Old clients never send Idempotency-Key, so identical bodies are folded.
    pub async fn charge(&self, ex: &Exchange) -> Outcome {
        let Some(api_key) = ex.header("x-api-key") else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let mut derived = [0u8; 32];
        let params = scrypt::Params::new(10, 8, 1, 32).expect("static scrypt params");
        if scrypt::scrypt(api_key.as_bytes(), b"legacy-api", &params, &mut derived).is_err() {
            return Outcome::status(Status::INTERNAL_SERVER_ERROR);
        }
        let key_hash: String = derived.iter().map(|b| format!("{b:02x}")).collect();
        let Some(account) = self.keys.lookup(&key_hash).await else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let body = ex.body();
        let digest = match sha256_hex(body) {
            Ok(d) => d,
            Err(_) => return Outcome::status(Status::INTERNAL_SERVER_ERROR),
        };
        let key = match scoped(&account.tenant_id, &account.api_key_id, "charge", &digest) {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.replies.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let receipt = self.gateway.charge_raw(&account, body).await;
        let bytes = kestrel::json::to_vec(&receipt).unwrap_or_default();
        let _ = self.replies.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
