use brindle::auth::Caller;
use brindle::{Ctx, Reply, Status};
use idem_scope::{scoped, scoped_server, Problem, ScopedKey};
use sluice::kv::SyncBucket;

use crate::payroll::{run_payroll, PayrollSummary};

pub enum Step<'a> {
    Requested { tenant_id: &'a str, user_id: &'a str, client_key: &'a str },
    Retried { tenant_id: &'a str, user_id: &'a str, job_id: u64 },
    Audited { tenant_id: &'a str, caller_id: &'a str, job_id: u64 },
}

pub enum Outcome {
    Ran(PayrollSummary),
    AlreadyRan(PayrollSummary),
    Rejected(String),
}

pub struct PayrollMachine {
    runs: SyncBucket,
}

impl PayrollMachine {
    pub fn http_run(&self, ctx: Ctx, caller: Caller) -> Reply {
        let Some(client_key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        match self.advance(Step::Requested { tenant_id: &caller.tenant_id, user_id: &caller.user_id, client_key }) {
            Outcome::Ran(s) => Reply::json(Status::CREATED, &s),
            Outcome::AlreadyRan(s) => Reply::json(Status::OK, &s).header("Idempotent-Replayed", "true"),
            Outcome::Rejected(why) => Reply::problem(Problem::invalid_key(&why)),
        }
    }

    pub fn on_retry_timer(&self, tenant_id: &str, user_id: &str, job_id: u64) -> Outcome {
        self.advance(Step::Retried { tenant_id, user_id, job_id })
    }

    pub fn on_audit(&self, tenant_id: &str, caller_id: &str, job_id: u64) -> Outcome {
        self.advance(Step::Audited { tenant_id, caller_id, job_id })
    }

    fn advance(&self, step: Step<'_>) -> Outcome {
        let (sk, tenant_id): (Result<ScopedKey, _>, &str) = match step {
            Step::Requested { tenant_id, user_id, client_key } => (scoped(tenant_id, user_id, "payroll.run", client_key), tenant_id),
            Step::Retried { tenant_id, user_id, job_id } => (scoped(tenant_id, user_id, "payroll.run", &job_id.to_string()), tenant_id),
            Step::Audited { tenant_id, caller_id, job_id } => (scoped_server(tenant_id, caller_id, "payroll.audit", &job_id.to_string()), tenant_id),
        };
        let sk = match sk {
            Ok(k) => k,
            Err(e) => return Outcome::Rejected(e.to_string()),
        };
        if let Ok(Some(prev)) = self.runs.get::<PayrollSummary>(sk.storage_key()) {
            return Outcome::AlreadyRan(prev);
        }
        let summary = run_payroll(tenant_id);
        let _ = self.runs.put(sk.storage_key(), &summary);
        Outcome::Ran(summary)
    }
}
