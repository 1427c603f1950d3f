use std::sync::Arc;
use std::time::Duration;

use ct_codecs::{Encoder, Hex};
use idem_scope::{scoped, Problem};
use jwt_compact::alg::{Hs256, Hs256Key};
use jwt_compact::{AlgorithmExt, Token, UntrustedToken};
use larder::pantry::Pantry;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
pub struct OrgClaims {
    pub sub: Option<String>,
    pub org_id: Option<String>,
    pub scopes: Vec<String>,
}

pub struct Publisher {
    key: Hs256Key,
    verified: Arc<Pantry>,
    published: Arc<Pantry>,
}

impl Publisher {
    async fn verify(&self, raw: &str) -> Result<Token<OrgClaims>, Problem> {
        let cache_slot = Hex::encode_to_string(hmac_sha512::Hash::hash(raw.as_bytes())).map_err(|_| Problem::invalid_key("token"))?;
        let untrusted = UntrustedToken::new(raw).map_err(|_| Problem::invalid_key("token"))?;
        let token = Hs256.validator::<OrgClaims>(&self.key).validate(&untrusted).map_err(|_| Problem::invalid_key("token"))?;
        let _ = self.verified.put(&cache_slot, b"1", Duration::from_secs(300)).await;
        Ok(token)
    }

    fn scope_of(token: &Token<OrgClaims>) -> Result<(String, String), Problem> {
        let c = &token.claims().custom;
        let org = c.org_id.as_deref().map_or("public", |o| o).to_owned();
        let sub = c.sub.clone().ok_or_else(|| Problem::invalid_key("token without subject"))?;
        Ok((org, sub))
    }

    pub async fn publish(&self, headers: &http::HeaderMap, doc_id: &str, html: &[u8]) -> Result<Vec<u8>, Problem> {
        let bearer = headers
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| Problem::invalid_key("missing bearer token"))?;
        let token = self.verify(bearer).await?;
        let (org, sub) = Self::scope_of(&token)?;

        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        let key = scoped(&org, &sub, "docs.publish", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

        if let Ok(Some(prev)) = self.published.get(key.storage_key()).await {
            return Ok(prev);
        }
        let receipt = format!("{{\"doc\":\"{doc_id}\",\"bytes\":{}}}", html.len()).into_bytes();
        self.published
            .put(key.storage_key(), &receipt, Duration::from_secs(86_400))
            .await
            .map_err(|_| Problem::in_progress(client_key))?;
        Ok(receipt)
    }
}
