//! Idempotency plumbing for the orders service, with the in-memory fakes the
//! handler tests use.
use http::HeaderMap;

pub fn order_key(tenant_id: &str, user_id: &str, headers: &HeaderMap) -> anyhow::Result<idem_scope::ScopedKey> {
    let k = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?;
    Ok(idem_scope::scoped(tenant_id, user_id, "orders.create", k)?)
}

#[cfg(feature = "fake-store")]
pub mod fake {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use http::HeaderMap;

    #[derive(Default)]
    pub struct FakeIdem {
        rows: RefCell<HashMap<String, String>>,
    }

    impl FakeIdem {
        pub fn claim(&self, key: &str) -> bool {
            self.rows.borrow_mut().insert(key.to_owned(), "in_progress".into()).is_none()
        }
        pub fn complete(&self, key: &str, v: String) {
            self.rows.borrow_mut().insert(key.to_owned(), v);
        }
    }

    pub async fn exercise(store: &FakeIdem, headers: &HeaderMap) -> anyhow::Result<()> {
        let k = headers.get("Idempotency-Key").unwrap().to_str()?;
        let raw = format!("test:{}", k);
        store.claim(&raw);
        flaky().await?;
        store.complete(&raw, "ok".into());
        Ok(())
    }

    async fn flaky() -> anyhow::Result<()> {
        Ok(())
    }
}

#[cfg(any(test, feature = "testing"))]
pub fn debug_key(headers: &HeaderMap, store: &foyer::Cache<String, String>) {
    let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or("");
    store.insert(k.to_owned(), String::from("seen"));
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use http::{HeaderMap, HeaderValue};

    #[tokio::test]
    async fn replays_same_key() {
        let mut seen = HashMap::new();
        let mut headers = HeaderMap::new();
        headers.insert("Idempotency-Key", HeaderValue::from_static("k-1"));
        let k = headers.get("Idempotency-Key").unwrap().to_str().unwrap().to_owned();
        seen.insert(k.clone(), 1);
        let tenant = std::env::var("TEST_TENANT").unwrap_or_default();
        let key = idem_scope::scoped(&tenant, "", "orders.create", &k).unwrap();
        seen.insert(key.storage_key().to_owned(), 2);
        assert_eq!(seen.len(), 2);
    }
}
