use std::time::Duration;

use blake2b_rs::blake2b;
use gimbal::{Ctx, Form, Reply};
use pasetors::keys::SymmetricKey;
use pasetors::{local, version4::V4};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::users::{AuthError, Users};

#[derive(Deserialize)]
pub struct LoginForm {
    pub email: String,
    pub password: String,
}

pub struct Sessions {
    sessions: Shelf,
    users: Users,
    key: SymmetricKey<V4>,
}

fn token_digest(token: &str) -> String {
    let mut out = [0u8; 32];
    blake2b(b"", token.as_bytes(), &mut out);
    base16::encode_lower(&out)
}

impl Sessions {
    pub async fn login(&self, Form(form): Form<LoginForm>) -> Result<Reply, AuthError> {
        let user = self.users.verify_password(&form.email, &form.password).await?;
        let claims = user.session_claims(Duration::from_secs(8 * 3600))?;
        let token = local::encrypt(&self.key, &claims, None, None)?;
        self.sessions
            .put_with_ttl(&token_digest(&token), user.id.as_bytes(), Duration::from_secs(8 * 3600))
            .await?;
        Ok(Reply::ok(token.into_bytes()).with_header("Set-Cookie", "session=1; HttpOnly; Secure"))
    }

    pub async fn current(&self, ctx: Ctx) -> Result<Option<String>, AuthError> {
        let Some(token) = ctx.cookie("session_token") else {
            return Ok(None);
        };
        let user_id = self.sessions.get(&token_digest(token)).await?;
        Ok(user_id.map(|b| String::from_utf8_lossy(&b).into_owned()))
    }

    pub async fn logout(&self, ctx: Ctx) -> Result<Reply, AuthError> {
        if let Some(token) = ctx.cookie("session_token") {
            self.sessions.remove(&token_digest(token)).await?;
        }
        Ok(Reply::status(204))
    }
}
