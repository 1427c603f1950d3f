use futures::future::{self, Ready};
use heed::types::{Bytes, Str};
use heed::{Database, Env};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tarpc::context::Context;

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct JobSpec {
    pub job_id: String,
    pub tenant_id: String,
    pub principal_id: String,
    pub kind: String,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Submit {
    /// Client idempotency key, forwarded verbatim from the `Idempotency-Key` header.
    pub idempotency_key: String,
    pub tenant_id: String,
    pub principal_id: String,
    pub kind: String,
}

#[tarpc::service]
pub trait Jobs {
    async fn submit(req: Submit) -> Result<String, String>;
    async fn run_scheduled(spec: JobSpec) -> Result<(), String>;
}

#[derive(Clone)]
pub struct JobsServer {
    env: Arc<Env>,
    dedup: Database<Str, Bytes>,
}

fn slot(ns: &str, tenant_id: &str, principal_id: &str, op: &str, id: &str) -> Vec<String> {
    vec![tenant_id.to_owned(), principal_id.to_owned(), op.to_owned(), ns.to_owned(), id.to_owned()]
}

impl JobsServer {
    fn check_and_mark(&self, parts: Vec<String>) -> Result<bool, String> {
        let packed = serde_json::to_string(&parts).map_err(|e| e.to_string())?;
        let mut w = self.env.write_txn().map_err(|e| e.to_string())?;
        if self.dedup.get(&w, &packed).map_err(|e| e.to_string())?.is_some() {
            return Ok(false);
        }
        self.dedup.put(&mut w, &packed, b"1").map_err(|e| e.to_string())?;
        w.commit().map_err(|e| e.to_string())?;
        Ok(true)
    }
}

impl Jobs for JobsServer {
    type SubmitFut = Ready<Result<String, String>>;
    type RunScheduledFut = Ready<Result<(), String>>;

    fn submit(self, _: Context, req: Submit) -> Self::SubmitFut {
        let parts = slot("u:", &req.tenant_id, &req.principal_id, &req.kind, &req.idempotency_key);
        future::ready(self.check_and_mark(parts).map(|fresh| if fresh { "queued".into() } else { "duplicate".into() }))
    }

    fn run_scheduled(self, _: Context, spec: JobSpec) -> Self::RunScheduledFut {
        let parts = slot("s:", &spec.tenant_id, &spec.principal_id, &spec.kind, &spec.job_id);
        future::ready(self.check_and_mark(parts).map(|_| ()))
    }
}
