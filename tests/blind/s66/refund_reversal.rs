use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem, ScopedKey};
use lintel::{Answer, Call, Code};
use skerry::stash::{BlockingStash, StashError};

use crate::refunds::{RefundError, Refunds};

const LEASE: Duration = Duration::from_secs(60);

pub struct RefundReversal {
    stash: Arc<BlockingStash>,
    refunds: Arc<Refunds>,
}

#[derive(Debug)]
enum Failure {
    Busy,
    Stash(StashError),
    Refund(RefundError),
}

impl RefundReversal {
    fn reversal_slot(&self, call: &Call, route: &str) -> Result<ScopedKey, Answer> {
        let who = call.identity().ok_or_else(|| Answer::status(Code::UNAUTHORIZED))?;
        let principal = who.api_key_id.clone().unwrap_or_else(|| who.user_id.clone());
        let key = call.header("Idempotency-Key").ok_or_else(|| Answer::problem(Problem::missing_key()))?;
        scoped(&who.tenant_id, &principal, route, key).map_err(|e| Answer::problem(Problem::invalid_key(&e.to_string())))
    }

    pub fn reverse(&self, call: Call, refund_id: &str) -> Answer {
        let slot = match self.reversal_slot(&call, "refund_reverse") {
            Ok(s) => s,
            Err(a) => return a,
        };
        match self.reverse_inner(&slot, refund_id) {
            Ok(body) => Answer::bytes(Code::OK, body),
            Err(Failure::Busy) => Answer::problem(Problem::in_progress(refund_id)),
            Err(e) => Answer::text(Code::CONFLICT, &format!("{e:?}")),
        }
    }

    fn reverse_inner(&self, slot: &ScopedKey, refund_id: &str) -> Result<Vec<u8>, Failure> {
        if !self.stash.claim(slot.storage_key(), LEASE).map_err(Failure::Stash)? {
            return Err(Failure::Busy);
        }
        let reversal = self.refunds.reverse(refund_id).map_err(|e| {
            let _ = self.stash.release(slot.storage_key());
            Failure::Refund(e)
        })?;
        let body = reversal.encode();
        self.stash.complete(slot.storage_key(), &body).map_err(Failure::Stash)?;
        Ok(body)
    }

    pub fn void(&self, call: Call, refund_id: &str) -> Answer {
        let slot = match self.reversal_slot(&call, "refund_void") {
            Ok(s) => s,
            Err(a) => return a,
        };
        match self.stash.claim(slot.storage_key(), LEASE) {
            Ok(true) => {}
            Ok(false) => return Answer::problem(Problem::in_progress(refund_id)),
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        }
        let result = self.refunds.void(refund_id);
        if let Err(e) = &result {
            let _ = self.stash.release(slot.storage_key());
            return Answer::text(Code::CONFLICT, &e.to_string());
        }
        let body = result.map(|v| v.encode()).unwrap_or_default();
        let _ = self.stash.complete(slot.storage_key(), &body);
        Answer::bytes(Code::OK, body)
    }
}
