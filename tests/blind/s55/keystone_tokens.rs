use ferrum::kv::{KvError, SharedKv};
use keystone::{Principal, TokenRecord};
use sha2::{Digest, Sha256};
use uuid::Uuid;

pub struct TokenAuthority {
    tokens: SharedKv,
    sessions: SharedKv,
    directory: keystone::Directory,
}

impl TokenAuthority {
    pub async fn authenticate(&self, bearer: Option<&str>) -> Principal {
        let Some(token) = bearer.and_then(|b| b.strip_prefix("Bearer ")) else {
            return Principal::Anonymous;
        };
        match self.tokens.get(&hex::encode(Sha256::digest(token.as_bytes()))).await {
            Ok(Some(raw)) => serde_json::from_slice::<TokenRecord>(&raw)
                .map(|rec| rec.principal())
                .unwrap_or(Principal::Anonymous),
            _ => Principal::Anonymous,
        }
    }

    pub async fn session_principal(&self, cookie: &str) -> Principal {
        self.sessions
            .get(cookie)
            .await
            .ok()
            .flatten()
            .and_then(|raw| serde_json::from_slice(&raw).ok())
            .unwrap_or(Principal::Anonymous)
    }

    pub async fn login(&self, user_id: &str, password: &str) -> Result<Option<String>, KvError> {
        let Some(principal) = self.directory.verify(user_id, password).await else {
            return Ok(None);
        };
        let session_id = Uuid::new_v4().to_string();
        let encoded = serde_json::to_vec(&principal).expect("principal serializes");
        self.sessions.set(&session_id, &encoded).await?;
        self.sessions.expire(&session_id, std::time::Duration::from_secs(3600)).await?;
        Ok(Some(session_id))
    }

    pub async fn logout(&self, cookie: &str) -> Result<(), KvError> {
        self.sessions.del(cookie).await
    }
}
