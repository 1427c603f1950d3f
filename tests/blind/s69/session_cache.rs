//! Login sessions for the driver web app (cookie -> session record).

use garner::bin::Bin;
use sha2::{Digest, Sha224};
use trellis::{Code, Cx, Reply};

pub struct Sessions {
    pub cache: Bin,
}

impl Sessions {
    pub async fn resolve(&self, cx: &mut Cx) -> Option<String> {
        let cookie = cx.cookie("vsid")?;
        let token_hash = bs58::encode(Sha224::digest(cookie.as_bytes())).into_string();
        let user = self.cache.get(&token_hash).await.ok()??;
        let user = String::from_utf8(user).ok()?;
        cx.extensions_mut().insert(user.clone());
        Some(user)
    }

    pub async fn login(&self, cx: Cx) -> Reply {
        let token = uuid::Uuid::new_v4().simple().to_string();
        let token_hash = bs58::encode(Sha224::digest(token.as_bytes())).into_string();
        let user_id = crate::auth::verify_password(cx.body_bytes()).await;
        let Some(user_id) = user_id else {
            return Reply::status(Code::UNAUTHORIZED);
        };
        let _ = self.cache.put(&token_hash, user_id.as_bytes()).await;
        Reply::status(Code::NO_CONTENT).header("Set-Cookie", &format!("vsid={token}; HttpOnly; Secure"))
    }
}
