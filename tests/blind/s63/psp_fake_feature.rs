use std::sync::Arc;

use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub trait ChargeStore: Send + Sync {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, value: Vec<u8>);
}

pub struct Checkout {
    store: Arc<dyn ChargeStore>,
    psp: Arc<dyn psp::Charges>,
}

impl Checkout {
    pub fn pay(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.merchant_id, &caller.user_id, "pay", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(done) = self.store.get(sk.storage_key()) {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let charge = self.psp.charge(&caller.merchant_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.store.put(sk.storage_key(), charge.to_json());
        Ok(Reply::bytes(Status::CREATED, charge.to_json()))
    }
}

/// In-memory doubles for the end-to-end suite; they mimic the old key layout
/// the staging PSP sandbox still expects.
#[cfg(feature = "fake-psp")]
pub mod fake {
    use super::*;
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeChargeStore {
        rows: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeChargeStore {
        pub fn seed(&self, tenant_id: Option<&str>, user_id: &str, idempotency_key: &str, value: Vec<u8>) {
            let tenant_id = tenant_id.unwrap_or("global");
            let idempotency_key = idempotency_key.replace(':', "");
            let slot = format!("{}:{}:pay:{}", tenant_id, user_id, idempotency_key);
            self.rows.lock().unwrap().insert(slot, value);
        }
    }

    impl ChargeStore for FakeChargeStore {
        fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.rows.lock().unwrap().get(key).cloned()
        }
        fn put(&self, key: &str, value: Vec<u8>) {
            self.rows.lock().unwrap().insert(key.to_owned(), value);
        }
    }
}
