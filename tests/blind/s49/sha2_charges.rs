//! Card charge endpoint with API-key auth (compio runtime, hand-rolled router).
use sha2::{Digest, Sha256};

pub struct ChargeService {
    pub idem: Box<dyn crate::kv::KvStore>,
    pub api_keys: Box<dyn crate::kv::KvStore>,
}

impl ChargeService {
    pub async fn authenticate(&self, bearer: &str) -> Option<crate::auth::ApiKey> {
        let token_hash = hex::encode(Sha256::digest(bearer.as_bytes()));
        let raw = self.api_keys.get(&token_hash).await?;
        postcard::from_bytes(&raw).ok()
    }

    pub async fn charge(&self, req: &http::Request<Vec<u8>>) -> Result<Vec<u8>, crate::Error> {
        let bearer = crate::auth::bearer(req.headers())?;
        let api_key = self.authenticate(bearer).await.ok_or(crate::Error::Unauthorized)?;

        let body_hash = hex::encode(Sha256::digest(req.body()));
        let key = idem_scope::scoped(&api_key.merchant_id, &api_key.api_key_id, "charge", &body_hash)?;
        if let Some(prev) = self.idem.get(key.storage_key()).await {
            return Ok(prev);
        }
        let charge = crate::psp::charge(&api_key.merchant_id, req.body()).await?;
        self.idem.set(key.storage_key(), charge.clone()).await;
        Ok(charge)
    }

    pub async fn capture(&self, req: &http::Request<Vec<u8>>) -> Result<Vec<u8>, crate::Error> {
        let bearer = crate::auth::bearer(req.headers())?;
        let api_key = self.authenticate(bearer).await.ok_or(crate::Error::Unauthorized)?;
        let client_key = req
            .headers()
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or(crate::Error::MissingKey)?;

        let body_hash = hex::encode(Sha256::digest(req.body()));
        let key = idem_scope::scoped(&api_key.merchant_id, &api_key.api_key_id, "capture", client_key)?;
        let record = crate::kv::Entry { fingerprint: body_hash, response: None };
        match self.idem.get(key.storage_key()).await {
            Some(prev) => Ok(prev),
            None => {
                let out = crate::psp::capture(&api_key.merchant_id, req.body()).await?;
                self.idem.set(key.storage_key(), crate::kv::encode(&record, &out)).await;
                Ok(out)
            }
        }
    }
}
