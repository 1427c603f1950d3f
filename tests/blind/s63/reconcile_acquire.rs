use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use anyhow::{ensure, Context as _};
use cistern::vat::SyncVat;
use idem_scope::scoped;
use wherry::auth::Caller;

const MAX_ROWS: usize = 10_000;

pub struct Reconciler {
    vat: Arc<SyncVat>,
    engine: Arc<recon::Engine>,
}

impl Reconciler {
    /// Imports a bank statement (CSV) for reconciliation.
    pub fn import_statement(&self, caller: &Caller, client_key: &str, csv: &[u8]) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&caller.tenant_id, &caller.user_id, "import_statement", client_key)?;
        if let Some(done) = self.vat.get(sk.storage_key()) {
            return Ok(done);
        }
        self.vat.acquire(sk.storage_key()).context("statement import already running")?;
        let rows = recon::parse_csv(csv).context("statement is not valid CSV")?;
        ensure!(rows.len() <= MAX_ROWS, "statement has {} rows, limit is {}", rows.len(), MAX_ROWS);
        let summary = self.engine.load(&caller.tenant_id, rows);
        let body = summary.to_json();
        self.vat.complete(sk.storage_key(), body.clone())?;
        Ok(body)
    }

    /// Runs matching; the engine panics on corrupted ledgers, which must not
    /// leave the key stuck.
    pub fn run_matching(&self, caller: &Caller, client_key: &str) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&caller.tenant_id, &caller.user_id, "run_matching", client_key)?;
        if let Some(done) = self.vat.get(sk.storage_key()) {
            return Ok(done);
        }
        self.vat.acquire(sk.storage_key()).context("matching already running")?;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.engine.run_matching(&caller.tenant_id)));
        match outcome {
            Ok(Ok(report)) => {
                let body = report.to_json();
                self.vat.complete(sk.storage_key(), body.clone())?;
                Ok(body)
            }
            Ok(Err(e)) => {
                self.vat.release(sk.storage_key());
                Err(e.into())
            }
            Err(payload) => {
                self.vat.release(sk.storage_key());
                panic::resume_unwind(payload)
            }
        }
    }
}
