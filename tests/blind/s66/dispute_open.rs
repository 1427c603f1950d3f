use std::collections::HashMap;
use std::sync::Arc;

use antidote::Mutex;
use idem_scope::Problem;
use lintel::extract::{FromRequestParts, Parts};
use lintel::{Answer, Call, Code};
use rust_sodium::crypto::hash::sha256;
use rustc_serialize::hex::ToHex;

use crate::disputes::{DisputeBook, DisputeForm, Merchant};

#[derive(Hash, PartialEq, Eq, Clone)]
struct DisputeSlot {
    account_id: String,
    key: String,
}

pub struct ApiKeyCaller {
    pub account_id: String,
    pub key_id: String,
}

pub struct KeyCache {
    merchants: Mutex<HashMap<String, Merchant>>,
}

impl FromRequestParts<KeyCache> for ApiKeyCaller {
    type Rejection = Answer;

    fn from_request_parts(parts: &Parts, cache: &KeyCache) -> Result<Self, Answer> {
        let bearer = parts.header("Authorization").and_then(|v| v.strip_prefix("Bearer ")).ok_or_else(|| Answer::status(Code::UNAUTHORIZED))?;
        let digest = sha256::hash(bearer.as_bytes()).0.to_hex();
        let merchants = cache.merchants.lock();
        let m = merchants.get(&digest).ok_or_else(|| Answer::status(Code::UNAUTHORIZED))?;
        Ok(ApiKeyCaller { account_id: m.account_id.clone(), key_id: m.key_id.clone() })
    }
}

pub struct Disputes {
    book: Arc<DisputeBook>,
    opened: Mutex<HashMap<DisputeSlot, Vec<u8>>>,
}

impl Disputes {
    pub async fn open(&self, caller: ApiKeyCaller, call: Call) -> Answer {
        let key = match call.header("Idempotency-Key") {
            Some(k) => k.to_owned(),
            None => return Answer::problem(Problem::missing_key()),
        };
        let slot = DisputeSlot { account_id: caller.account_id.clone(), key: key.clone() };
        if let Some(body) = self.opened.lock().get(&slot).cloned() {
            return Answer::bytes(Code::OK, body);
        }

        let Ok(mut form) = call.form::<DisputeForm>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        form.note = format!("opened via API key {} with retry key {}", caller.key_id, key);
        let dispute = match self.book.open(&caller.account_id, form).await {
            Ok(d) => d,
            Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        };
        let body = dispute.to_json().into_bytes();
        self.opened.lock().insert(slot, body.clone());
        Answer::bytes(Code::CREATED, body)
    }
}
