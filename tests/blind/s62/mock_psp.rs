//! In-process stand-in for the PSP used by local development and the
//! contract tests. Never compiled into release builds.

#[cfg(any(test, feature = "mock-psp"))]
pub mod mock {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::time::Duration;

    use cryptoxide::hashing::sha256;
    use quarry::kv::SyncVault;

    pub struct MockPsp {
        pub charges: Mutex<HashMap<String, u64>>,
        pub book: SyncVault,
    }

    impl MockPsp {
        pub fn charge(&self, tenant_id: &str, user_id: &str, idempotency_key: &str, body: &[u8]) -> anyhow::Result<String> {
            let cleaned = idempotency_key.replace(':', "");
            let body_key = hex_of(&sha256(body));
            let slot = format!("{tenant_id}/{user_id}/charge/{cleaned}");
            if !self.book.claim(&slot, Duration::from_secs(30)) {
                anyhow::bail!("in progress");
            }
            let amount: u64 = std::str::from_utf8(body)?.trim().parse()?;
            let mut charges = self.charges.lock().unwrap();
            charges.insert(body_key.clone(), amount);
            self.book.complete(&slot, body_key.clone().into_bytes());
            Ok(body_key)
        }

        pub fn refund(&self, charge_key: &str) -> anyhow::Result<u64> {
            let mut charges = self.charges.lock().unwrap();
            charges
                .remove(charge_key)
                .ok_or_else(|| anyhow::anyhow!("unknown charge {charge_key}"))
        }

        pub fn reset(&self) {
            self.charges.lock().unwrap().clear();
        }
    }

    fn hex_of(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}
