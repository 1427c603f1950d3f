use std::collections::HashMap;
use std::sync::Arc;

use lintel::{Answer, Call, Code};
use may::sync::Mutex;
use miniserde::{json, Deserialize};
use rust_sodium::crypto::generichash;

use crate::wallet::{TopUpResult, Wallet};

#[derive(Deserialize)]
struct TopUp {
    wallet_id: String,
    amount_minor: u64,
    funding_source: String,
}

trait DedupeDigest {
    fn dedupe_digest(&self) -> String;
}

impl DedupeDigest for TopUp {
    fn dedupe_digest(&self) -> String {
        let mut st = generichash::State::new(Some(24), None).expect("digest size");
        st.update(self.wallet_id.as_bytes()).ok();
        st.update(&self.amount_minor.to_le_bytes()).ok();
        st.update(self.funding_source.as_bytes()).ok();
        let d = st.finalize().expect("finalize");
        d.as_ref().iter().map(|b| format!("{b:02x}")).collect()
    }
}

type Slot = (String, String, &'static str, String);

pub struct TopUps {
    wallet: Arc<Wallet>,
    dedup: Mutex<HashMap<Slot, TopUpResult>>,
}

impl TopUps {
    pub fn post(self: Arc<Self>, call: Call) -> Answer {
        let Some(who) = call.identity().cloned() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Ok(req) = json::from_str::<TopUp>(&String::from_utf8_lossy(call.body())) else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let slot: Slot = (who.tenant_id.clone(), who.user_id.clone(), "wallet_topup", req.dedupe_digest());

        if let Some(done) = self.dedup.lock().unwrap().get(&slot) {
            return Answer::text(Code::OK, &done.to_json());
        }
        let this = Arc::clone(&self);
        let handle = may::go!(move || this.wallet.top_up(&who.tenant_id, &req.wallet_id, req.amount_minor, &req.funding_source));
        match handle.join() {
            Ok(Ok(result)) => {
                let body = result.to_json();
                self.dedup.lock().unwrap().insert(slot, result);
                Answer::text(Code::CREATED, &body)
            }
            Ok(Err(e)) => Answer::text(Code::PAYMENT_REQUIRED, &e.to_string()),
            Err(_) => Answer::status(Code::INTERNAL_SERVER_ERROR),
        }
    }
}
