//! API tokens for partner integrations and the session cache for the desk.

use easy_hasher::easy_hasher::raw_sha256;
use silage::bunker::Bunker;
use stirrup::{Code, Inbound, Sendback};

pub struct TokenStore {
    /// sha256(token) -> serialized partner identity
    pub tokens: Bunker,
    /// session id -> serialized desk session
    pub sessions: Bunker,
}

#[derive(serde::Deserialize)]
pub struct PartnerIdentity {
    pub account_id: String,
    pub api_key_id: String,
    pub scopes: Vec<String>,
}

impl TokenStore {
    pub async fn partner_for(&self, inb: &Inbound) -> Result<PartnerIdentity, Sendback> {
        let Some(bearer) = inb.header("Authorization").and_then(|h| h.strip_prefix("Bearer ")) else {
            return Err(Sendback::status(Code::Unauthorized));
        };
        let token_digest = raw_sha256(bearer.as_bytes().to_vec()).to_hex_string();
        let Ok(Some(raw)) = self.tokens.get(&token_digest).await else {
            return Err(Sendback::status(Code::Unauthorized));
        };
        serde_json::from_slice(&raw).map_err(|_| Sendback::status(Code::Unauthorized))
    }

    pub async fn desk_session(&self, inb: &Inbound) -> Option<Vec<u8>> {
        let sid = inb.cookie("vetra_sid")?;
        self.sessions.get(sid).await.ok().flatten()
    }

    pub async fn issue_session(&self, sid: &str, session: &[u8]) -> Result<(), silage::StoreError> {
        self.sessions.put_for(sid, session.to_vec(), std::time::Duration::from_secs(8 * 3600)).await
    }
}
