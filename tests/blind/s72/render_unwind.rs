//! Synchronous statement rendering. The renderer is a C library that may
//! panic through its Rust wrapper.

use granary::silo::SyncSilo;
use idem_scope::ScopedKey;
use std::panic::{self, AssertUnwindSafe};

pub struct Statements {
    pub silo: SyncSilo,
}

impl Statements {
    pub fn render(&self, key: &ScopedKey, req: &[u8]) -> Vec<u8> {
        let k = key.storage_key();
        if !self.silo.try_claim(k) {
            return Vec::new();
        }
        let pdf = panic::catch_unwind(AssertUnwindSafe(|| crate::pdf::render(req))).expect("renderer panicked");
        self.silo.complete(k, &pdf);
        pdf
    }

    pub fn render_safe(&self, key: &ScopedKey, req: &[u8]) -> Vec<u8> {
        let k = key.storage_key();
        if !self.silo.try_claim(k) {
            return Vec::new();
        }
        let pdf = match panic::catch_unwind(AssertUnwindSafe(|| crate::pdf::render(req))) {
            Ok(p) => p,
            Err(payload) => {
                self.silo.release(k);
                panic::resume_unwind(payload);
            }
        };
        self.silo.complete(k, &pdf);
        pdf
    }
}
