//! Replay helpers for the box-office routes, with test fixtures below.
use idem_scope::{scoped, ScopeError, ScopedKey};

/// Scoped key of a box-office write.
pub fn box_office_key(org_id: &str, user_id: &str, route: &str, client_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(org_id, user_id, route, client_key)
}

#[cfg(test)]
mod fixtures {
    use std::time::Duration;

    use loft::batten::testing::MemBatten;
    use proscenium::testing::CueBuilder;

    use super::box_office_key;

    const KEEP: Duration = Duration::from_secs(60);

    #[tokio::test]
    async fn legacy_rows_are_found_by_raw_key() {
        let batten = MemBatten::new();
        let cue = CueBuilder::post("/v1/orders/tickets").header("Idempotency-Key", "k-1").build();
        let key = cue.header("Idempotency-Key").unwrap();
        batten.put(key, b"legacy".to_vec(), KEEP).await.unwrap();
        batten.put(&format!("org-a:{key}"), b"legacy-org".to_vec(), KEEP).await.unwrap();
        assert_eq!(batten.get(key).await.unwrap().as_deref(), Some(&b"legacy"[..]));
    }

    #[tokio::test]
    async fn claims_are_released_by_the_fixture_teardown() {
        let batten = MemBatten::new();
        let sk = box_office_key("org-a", "user-1", "refund", "k-2").unwrap();
        assert!(batten.claim(sk.storage_key(), KEEP).await.unwrap());
        let body = std::fs::read("fixtures/refund.json").unwrap();
        batten.complete(sk.storage_key(), body, KEEP).await.unwrap();
    }
}
