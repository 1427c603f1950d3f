use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use idem_scope::ScopedKey;
use tallow::SyncKv;

use crate::ledger::{Adjustment, AdjustmentError, GeneralLedger, Posting};

const LEASE: Duration = Duration::from_secs(120);

/// Synchronous adjustment engine used by the batch importer and the admin
/// console. Every entry point receives an already scoped key.
pub struct Adjuster {
    kv: Arc<SyncKv>,
    ledger: GeneralLedger,
}

impl Adjuster {
    pub fn post_adjustment(&self, key: &ScopedKey, adj: &Adjustment) -> Result<Posting, AdjustmentError> {
        self.kv.claim(key.storage_key(), LEASE)?;
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| self.ledger.post(adj)));
        let posting = match outcome {
            Ok(Ok(p)) => p,
            Ok(Err(e)) => {
                self.kv.release(key.storage_key())?;
                return Err(e);
            }
            Err(payload) => {
                let _ = self.kv.release(key.storage_key());
                panic::resume_unwind(payload);
            }
        };
        self.kv.complete(key.storage_key(), &posting.to_bytes())?;
        Ok(posting)
    }

    pub fn reverse(&self, key: &ScopedKey, posting_id: &str) -> Result<Posting, AdjustmentError> {
        self.kv.claim(key.storage_key(), LEASE)?;
        let original = self
            .ledger
            .find(posting_id)
            .map_err(|e| {
                let _ = self.kv.release(key.storage_key());
                e
            })?;
        let reversal = self.ledger.reverse(&original).map_err(|e| {
            let _ = self.kv.release(key.storage_key());
            e
        })?;
        self.kv.complete(key.storage_key(), &reversal.to_bytes())?;
        Ok(reversal)
    }

    pub fn annotate(&self, key: &ScopedKey, posting: &Posting, note: &str) -> Result<(), AdjustmentError> {
        let text = format!("{}: {}", posting.id, note.trim());
        self.kv.claim(key.storage_key(), LEASE)?;
        let stamped = self.ledger.stamp_note(posting, text);
        self.kv.complete(key.storage_key(), stamped.as_bytes())?;
        Ok(())
    }
}
