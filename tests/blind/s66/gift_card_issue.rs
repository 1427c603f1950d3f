use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::blocking::{Answer, Call, Code};
use nanoserde::{DeJson, SerJson};
use skerry::stash::BlockingStash;

use crate::cards::{CardIssuer, IssueError};

const LEASE_SECS: u64 = 60;

#[derive(DeJson)]
struct GiftSpec {
    design: String,
    amount_minor: u64,
    recipient_email: String,
}

#[derive(SerJson)]
struct IssuedCard {
    card_id: String,
    masked: String,
}

pub struct GiftCards {
    stash: Arc<BlockingStash>,
    issuer: Arc<CardIssuer>,
}

impl GiftCards {
    pub fn issue(&self, call: Call) -> Answer {
        match self.try_issue(&call) {
            Ok(a) => a,
            Err(IssueError::Declined(why)) => Answer::text(Code::PAYMENT_REQUIRED, &why),
            Err(_) => Answer::status(Code::SERVICE_UNAVAILABLE),
        }
    }

    fn try_issue(&self, call: &Call) -> Result<Answer, IssueError> {
        let Some(who) = call.identity() else {
            return Ok(Answer::status(Code::UNAUTHORIZED));
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Ok(Answer::problem(Problem::missing_key()));
        };
        let slot = match scoped(&who.tenant_id, &who.user_id, "gift_card_issue", key) {
            Ok(s) => s,
            Err(e) => return Ok(Answer::problem(Problem::invalid_key(&e.to_string()))),
        };

        if !self.stash.set_nx(slot.storage_key(), b"in_progress", LEASE_SECS)? {
            return Ok(match self.stash.get(slot.storage_key())? {
                Some(v) if v.as_slice() != b"in_progress" => Answer::bytes(Code::OK, v),
                _ => Answer::problem(Problem::in_progress(key)),
            });
        }

        let text = String::from_utf8_lossy(call.body());
        let spec = GiftSpec::deserialize_json(&text).unwrap();
        let card = self.issuer.issue(&who.tenant_id, &spec.design, spec.amount_minor, &spec.recipient_email)?;
        let body = IssuedCard { card_id: card.id, masked: card.masked }.serialize_json().into_bytes();
        self.stash.put(slot.storage_key(), &body)?;
        Ok(Answer::bytes(Code::CREATED, body))
    }
}
