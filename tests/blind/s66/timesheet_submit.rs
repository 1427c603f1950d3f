use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::hr::{Timesheet, TimesheetBook};

/// Collects the parts of a slot before handing them to `scoped`.
#[derive(Default)]
struct SlotSpec {
    tenant: String,
    principal: String,
    route: String,
}

impl SlotSpec {
    fn tenant(mut self, t: &str) -> Self {
        self.tenant = t.to_owned();
        self
    }

    fn principal(mut self, p: &str) -> Self {
        // User ids copied from badge printouts carry a leading "#".
        self.principal = p.replace('#', "");
        self
    }

    fn route(mut self, r: &str) -> Self {
        self.route = r.to_owned();
        self
    }

    fn build(&self, key: &str) -> Result<ScopedKey, ScopeError> {
        scoped(&self.tenant, &self.principal, &self.route, key)
    }
}

pub struct TimesheetApi {
    stash: Arc<Stash>,
    book: Arc<TimesheetBook>,
}

impl TimesheetApi {
    pub async fn submit(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match SlotSpec::default().tenant(&who.tenant_id).principal(&who.user_id).route("timesheet_submit").build(key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(sheet) = call.json::<Timesheet>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let week = sheet.iso_week.trim_start_matches('W');
        match self.book.submit(&who.tenant_id, &who.user_id, week, &sheet).await {
            Ok(receipt) => {
                let body = receipt.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::ACCEPTED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
