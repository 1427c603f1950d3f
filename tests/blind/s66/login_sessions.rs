use std::num::NonZeroU32;
use std::sync::Arc;

use lintel::{Answer, Call, Code};
use pbkdf2::pbkdf2_hmac_array;
use rust_sodium::crypto::hash::sha256;
use rust_sodium::randombytes::randombytes;
use rustc_serialize::hex::ToHex;
use skerry::stash::Stash;

use crate::accounts::{Accounts, LoginForm, Prf};

const ROUNDS: NonZeroU32 = match NonZeroU32::new(210_000) {
    Some(n) => n,
    None => unreachable!(),
};

pub struct LoginApi {
    accounts: Arc<Accounts>,
    sessions: Arc<Stash>,
}

impl LoginApi {
    pub async fn login(&self, call: Call) -> Answer {
        let Ok(form) = call.form::<LoginForm>() else { return Answer::status(Code::BAD_REQUEST) };
        let Some(user) = self.accounts.find(&form.tenant_id, &form.email).await else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let derived = pbkdf2_hmac_array::<Prf, 32>(form.password.as_bytes(), &user.salt, ROUNDS.get());
        if derived.to_hex() != user.password_hash {
            return Answer::status(Code::UNAUTHORIZED);
        }
        let token = randombytes(32).to_hex();
        let token_digest = sha256::hash(token.as_bytes()).0.to_hex();
        let session_slot = format!("session:{}", token_digest);
        let record = format!("{}\n{}", user.tenant_id, user.user_id);
        if self.sessions.put_ttl(&session_slot, record.as_bytes(), 8 * 3600).await.is_err() {
            return Answer::status(Code::SERVICE_UNAVAILABLE);
        }
        Answer::text(Code::OK, "{}").with_header("Set-Cookie", &format!("sid={token}; HttpOnly; Secure; SameSite=Lax"))
    }

    pub async fn logout(&self, call: Call) -> Answer {
        let Some(token) = call.cookie("sid") else { return Answer::status(Code::NO_CONTENT) };
        let token_digest = sha256::hash(token.as_bytes()).0.to_hex();
        let _ = self.sessions.remove(&format!("session:{}", token_digest)).await;
        Answer::status(Code::NO_CONTENT).with_header("Set-Cookie", "sid=; Max-Age=0")
    }
}
