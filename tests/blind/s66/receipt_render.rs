use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use lintel::blocking::{Answer, Call, Code};
use monocypher::hashing::blake2b;
use rustc_serialize::hex::ToHex;
use skerry::stash::BlockingStash;

use crate::receipts::{ReceiptRenderer, ReceiptSpec};

pub struct Receipts {
    stash: Arc<BlockingStash>,
    renderer: Arc<ReceiptRenderer>,
}

impl Receipts {
    pub fn render(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "receipt_render", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        let Ok(spec) = call.json::<ReceiptSpec>() else { return Answer::status(Code::BAD_REQUEST) };

        match self.stash.claim(slot.storage_key(), Duration::from_secs(30)) {
            Ok(true) => {}
            Ok(false) => return Answer::problem(Problem::in_progress(key)),
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        }
        let renderer = Arc::clone(&self.renderer);
        let pdf = match panic::catch_unwind(AssertUnwindSafe(|| renderer.render(&spec))) {
            Ok(pdf) => pdf,
            Err(payload) => {
                let _ = self.stash.release(slot.storage_key());
                panic::resume_unwind(payload);
            }
        };
        let signature = blake2b(&pdf)[..32].to_hex();
        let mut stored = signature.clone().into_bytes();
        stored.push(b'\n');
        stored.extend_from_slice(&pdf);
        let _ = self.stash.complete(slot.storage_key(), &stored);
        Answer::bytes(Code::OK, pdf).with_header("X-Receipt-Signature", &signature)
    }

    pub fn annotate(&self, call: Call, receipt_no: &str) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "receipt_annotate", key) else {
            return Answer::problem(Problem::invalid_key("key rejected"));
        };
        let note = String::from_utf8_lossy(call.body()).into_owned();
        if let Ok(true) = self.stash.claim(slot.storage_key(), Duration::from_secs(10)) {
            let outcome = self.renderer.annotate(&who.tenant_id, receipt_no, &note);
            let body = outcome.to_string().into_bytes();
            let _ = self.stash.complete(slot.storage_key(), &body);
            return Answer::bytes(Code::OK, body);
        }
        Answer::problem(Problem::in_progress(key))
    }
}
