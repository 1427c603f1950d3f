//! Card charge endpoint for the POS backend (hyperlane behind an L7 proxy).
use bytes::Bytes;
use idem_scope::{scoped, Fingerprint, Problem};
use scc::HashMap as SccMap;
use sha2::{Digest, Sha256};

pub struct Auth {
    pub tenant_id: String,
    pub user_id: String,
    pub api_token: String,
}

pub struct Stored {
    pub fingerprint: Fingerprint,
    pub body: Bytes,
}

pub struct ChargeApi {
    idem: SccMap<String, Stored>,
    sessions: SccMap<String, String>,
}

impl ChargeApi {
    pub async fn charge(&self, auth: &Auth, req: http::Request<Bytes>) -> Result<Bytes, Problem> {
        let token_hash = hex::encode(Sha256::digest(auth.api_token.as_bytes()));
        if self.sessions.get_async(&token_hash).await.is_none() {
            return Err(Problem::invalid_key("unknown session"));
        }
        let body = req.body();
        let key = scoped(&auth.tenant_id, &auth.user_id, "charge", &hex::encode(Sha256::digest(body)))
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let fingerprint = Fingerprint::of("charge", body);

        if let Some(prev) = self.idem.get_async(key.storage_key()).await {
            return Ok(prev.get().body.clone());
        }
        let out = Bytes::from_static(b"{\"charged\":true}");
        let _ = self
            .idem
            .insert_async(key.storage_key().to_owned(), Stored { fingerprint, body: out.clone() })
            .await;
        Ok(out)
    }

    pub async fn refund(&self, auth: &Auth, req: http::Request<Bytes>) -> Result<Bytes, Problem> {
        let k = req.headers().get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let k = k.to_str().map_err(|_| Problem::invalid_key("not ascii"))?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "refund", k).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body_hash = hex::encode(Sha256::digest(req.body()));
        let fingerprint = Fingerprint::of("refund", req.body());
        tracing::debug!(%body_hash, "refund request");
        if let Some(prev) = self.idem.get_async(key.storage_key()).await {
            if prev.get().fingerprint.as_bytes() != fingerprint.as_bytes() {
                return Err(Problem::mismatch(k));
            }
            return Ok(prev.get().body.clone());
        }
        let out = Bytes::from_static(b"{\"refunded\":true}");
        let _ = self.idem.insert_async(key.storage_key().to_owned(), Stored { fingerprint, body: out.clone() }).await;
        Ok(out)
    }
}
