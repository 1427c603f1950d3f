use std::panic::{self, AssertUnwindSafe};

use idem_scope::{scoped, ScopedKey};

pub struct JobApi {
    kv: ReplayKv,
    exec: Executor,
}

pub struct Call<'a> {
    pub headers: &'a [(&'a str, &'a str)],
    pub team_id: &'a str,
    pub user_id: &'a str,
    pub payload: &'a [u8],
}

fn idem_of<'a>(call: &Call<'a>) -> Option<&'a str> {
    call.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| *v)
}

impl JobApi {
    pub fn run_job(&self, call: &Call<'_>) -> Result<Vec<u8>, JobError> {
        let key = scoped(call.team_id, call.user_id, "jobs.run", idem_of(call).ok_or(JobError::MissingKey)?)?;
        let attempt = |k: &ScopedKey| -> Result<Vec<u8>, JobError> {
            self.kv.try_acquire(k)?;
            let plan = self.exec.plan(call.payload).expect("planner never fails on validated input");
            let out = self.exec.execute(&plan)?;
            self.kv.store_response(k, &out)?;
            Ok(out)
        };
        attempt(&key)
    }

    pub fn run_job_unwind_safe(&self, call: &Call<'_>) -> Result<Vec<u8>, JobError> {
        let key = scoped(call.team_id, call.user_id, "jobs.run", idem_of(call).ok_or(JobError::MissingKey)?)?;
        self.kv.try_acquire(&key)?;
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            let plan = self.exec.plan(call.payload).expect("planner never fails on validated input");
            self.exec.execute(&plan)
        }));
        match result {
            Ok(Ok(out)) => {
                self.kv.store_response(&key, &out)?;
                Ok(out)
            }
            Ok(Err(e)) => {
                self.kv.release(&key)?;
                Err(e)
            }
            Err(p) => {
                let _ = self.kv.release(&key);
                panic::resume_unwind(p)
            }
        }
    }
}
