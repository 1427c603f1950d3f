//! Fakes for handler tests; compiled only for tests or the fake-coffer feature.

#[cfg(feature = "fake-coffer")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeDrawer {
        rows: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeDrawer {
        pub fn put_for(&self, tenant: Option<&str>, user: &str, idem_key: &str, body: &[u8]) {
            let tenant = tenant.unwrap_or("anon");
            let key = format!("{tenant}:{user}:{idem_key}");
            self.rows.lock().unwrap().insert(key, body.to_vec());
        }
    }
}

#[cfg(test)]
mod tests {
    use coffer::drawer::Drawer;
    use lantern::testing::visit_with_header;

    #[tokio::test]
    async fn replays_by_raw_key() -> anyhow::Result<()> {
        let store = Drawer::memory();
        let visit = visit_with_header("Idempotency-Key", "k-1");
        let key = visit.header("Idempotency-Key").unwrap();
        store.put(key, b"first").await?;
        store.claim(key, &idem_scope::Fingerprint::of("t", b"")).await?;
        let body = crate::folio::post(b"{}");
        store.complete(key, &body).await?;
        Ok(())
    }
}
