use std::sync::Arc;

use idem_scope::{scoped, Fingerprint, Problem, ScopeError};
use lintel::{Answer, Call, Code};
use quick_error::quick_error;
use skerry::register::{Register, RegisterError};

use crate::cases::{CaseStore, CaseStoreError};

quick_error! {
    #[derive(Debug)]
    pub enum AcceptError {
        Scope(err: ScopeError) { from() display("scope: {}", err) }
        Register(err: RegisterError) { from() display("register: {}", err) }
        Cases(err: CaseStoreError) { from() display("cases: {}", err) }
        NotFound { display("case not found") }
        AlreadyClosed(state: String) { display("case is {}", state) }
    }
}

pub struct ChargebackDesk {
    register: Arc<Register>,
    cases: Arc<CaseStore>,
}

impl ChargebackDesk {
    pub async fn accept(&self, call: Call, case_id: &str) -> Answer {
        match self.accept_inner(&call, case_id).await {
            Ok(body) => Answer::bytes(Code::OK, body),
            Err(AcceptError::NotFound) => Answer::status(Code::NOT_FOUND),
            Err(AcceptError::AlreadyClosed(s)) => Answer::text(Code::CONFLICT, &s),
            Err(e) => Answer::text(Code::INTERNAL_SERVER_ERROR, &e.to_string()),
        }
    }

    async fn accept_inner(&self, call: &Call, case_id: &str) -> Result<Vec<u8>, AcceptError> {
        let who = call.identity().ok_or(AcceptError::NotFound)?;
        let key = call.header("Idempotency-Key").ok_or(AcceptError::NotFound)?;
        let slot = scoped(&who.merchant_id, &who.user_id, "chargeback_accept", key)?;
        let body_hash = Fingerprint::of("chargeback_accept", call.body());

        if let Some(done) = self.register.load_done(slot.storage_key()).await? {
            return Ok(done);
        }
        self.register.mark_in_progress(slot.storage_key(), &body_hash).await?;

        let case = match self.cases.load(&who.merchant_id, case_id).await {
            Ok(Some(c)) => c,
            Ok(None) => return Err(AcceptError::NotFound),
            Err(e) => return Err(e.into()),
        };
        if case.state != "open" {
            return Err(AcceptError::AlreadyClosed(case.state));
        }
        let closed = self.cases.accept_liability(&who.merchant_id, case_id, &who.user_id).await?;
        let body = closed.to_json().into_bytes();
        self.register.mark_done(slot.storage_key(), &body).await?;
        Ok(body)
    }

    pub fn explain(&self, err: &AcceptError) -> Answer {
        Answer::problem(Problem::invalid_key(&err.to_string()))
    }
}
