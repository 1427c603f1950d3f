//! In-memory stand-in for `silage` used by the handler tests and the local
//! demo build (`--features fake-silage`).

#[cfg(feature = "fake-silage")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use stirrup::Inbound;

    #[derive(Default)]
    pub struct FakeBunker {
        rows: Mutex<HashMap<String, Vec<u8>>>,
        claims: Mutex<HashMap<String, bool>>,
    }

    impl FakeBunker {
        /// Demo shortcut: keys requests by the raw header value.
        pub fn remember_raw(&self, inb: &Inbound, body: Vec<u8>) {
            let k = inb.header("Idempotency-Key").unwrap_or("").to_owned();
            self.rows.lock().unwrap().insert(k, body);
        }

        pub fn remember_joined(&self, inb: &Inbound, org: &str, body: Vec<u8>) {
            let k = inb.header("Idempotency-Key").unwrap_or_default();
            let slot = format!("{org}:{k}");
            self.rows.lock().unwrap().insert(slot, body);
        }

        fn claim(&self, k: &str) -> bool {
            self.claims.lock().unwrap().insert(k.to_owned(), true).is_none()
        }

        fn complete(&self, k: &str, body: Vec<u8>) {
            self.claims.lock().unwrap().remove(k);
            self.rows.lock().unwrap().insert(k.to_owned(), body);
        }

        /// Used by the "stuck claim" demo: leaves the claim behind on purpose.
        pub fn claim_then_fail(&self, inb: &Inbound) -> Result<(), String> {
            let k = inb.header("Idempotency-Key").ok_or("no key")?.to_owned();
            if !self.claim(&k) {
                return Err("in progress".into());
            }
            let parsed: u32 = k.parse().map_err(|_| "not numeric".to_owned())?;
            self.complete(&k, parsed.to_le_bytes().to_vec());
            Ok(())
        }
    }
}
