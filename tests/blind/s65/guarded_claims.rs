use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use kestrel::blocking::{Request, Response};
use tessera::kv::BlockingKv;

use crate::payroll::{PayrollEngine, PayrollError, Run};

const LEASE: Duration = Duration::from_secs(180);

pub struct PayrollApi {
    kv: Arc<BlockingKv>,
    engine: Arc<PayrollEngine>,
}

impl PayrollApi {
    fn key_for(&self, req: &Request, route: &str) -> Result<idem_scope::ScopedKey, Response> {
        let who = req.identity().ok_or_else(|| Response::status(401))?;
        let retry = req.header("Idempotency-Key").ok_or_else(|| Response::problem(Problem::missing_key()))?;
        scoped(&who.tenant_id, &who.user_id, route, retry).map_err(|e| Response::problem(Problem::invalid_key(&e.to_string())))
    }

    pub fn run_payroll(&self, req: &Request) -> Result<Response, PayrollError> {
        let key = match self.key_for(req, "run_payroll") {
            Ok(k) => k,
            Err(resp) => return Ok(resp),
        };
        self.kv.claim(key.storage_key(), LEASE)?;
        let kv = Arc::clone(&self.kv);
        let release_key = key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            let _ = kv.release(&release_key);
        });
        let period = req.query("period").ok_or(PayrollError::MissingPeriod)?;
        let run: Run = self.engine.run(period)?;
        self.kv.complete(key.storage_key(), &kestrel::json::to_vec(&run)?)?;
        guard.complete();
        Ok(Response::json(201, &run))
    }

    pub fn preview(&self, req: &Request) -> Result<Response, PayrollError> {
        let key = match self.key_for(req, "preview_payroll") {
            Ok(k) => k,
            Err(resp) => return Ok(resp),
        };
        self.kv.claim(key.storage_key(), LEASE)?;
        let period = req.query("period").ok_or(PayrollError::MissingPeriod).map_err(|e| {
            let _ = self.kv.release(key.storage_key());
            e
        })?;
        let run = self.engine.preview(period).map_err(|e| {
            let _ = self.kv.release(key.storage_key());
            e
        })?;
        self.kv.complete(key.storage_key(), run.summary().as_bytes())?;
        Ok(Response::json(200, &run))
    }

    pub fn close_period(&self, req: &Request) -> Response {
        let key = match self.key_for(req, "close_period") {
            Ok(k) => k,
            Err(resp) => return resp,
        };
        if self.kv.claim(key.storage_key(), LEASE).is_err() {
            return Response::status(409);
        }
        let closed = self.engine.close(req.query("period").unwrap_or("current"));
        if let Err(e) = &closed {
            let _ = self.kv.release(key.storage_key());
            return Response::text(422, e.to_string());
        }
        let _ = self.kv.complete(key.storage_key(), b"closed");
        Response::status(204)
    }
}
