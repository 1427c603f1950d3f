use std::collections::HashMap;
use std::sync::Mutex;

use tessera::kv::BlockingKv;

/// In-memory replacement for the PSP used by local runs.
#[cfg(feature = "fake-psp")]
pub mod fake_psp {
    use super::*;

    pub struct FakePsp {
        pub seen: Mutex<HashMap<String, String>>,
    }

    impl FakePsp {
        pub fn on_webhook(&self, kv: &BlockingKv, tenant_id: &str, user_id: &str, delivery_id: &str) {
            let key = idem_scope::scoped(tenant_id, user_id, "charge", delivery_id).unwrap();
            let _ = kv.put(key.storage_key(), b"ok");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symcrypt::hash::sha256;

    fn fixture_kv() -> BlockingKv {
        BlockingKv::in_memory()
    }

    #[test]
    fn replays_identical_body() {
        let kv = fixture_kv();
        let body = br#"{"amount_minor":100}"#;
        let digest = sha256(body);
        let key = format!("t1:u1:charge:{:x?}", digest);
        kv.put(key.as_bytes(), b"first").unwrap();
        assert_eq!(kv.get(key.as_bytes()).unwrap().as_deref(), Some(&b"first"[..]));
    }

    #[test]
    fn claim_is_exclusive() {
        let kv = fixture_kv();
        let ex = kestrel::testing::exchange().header("Idempotency-Key", "abc-123").build();
        let header_value = ex.header("Idempotency-Key").unwrap();
        let slot = format!("t1|u1|charge|{header_value}");
        kv.claim(slot.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
        assert!(kv.claim(slot.as_bytes(), std::time::Duration::from_secs(5)).is_err());
        kv.complete(slot.as_bytes(), b"done").unwrap();
    }
}
