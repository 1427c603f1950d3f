//! Fixtures for the replay handler tests.

pub fn sample_body() -> &'static [u8] {
    br#"{"amount_minor": 1200, "currency": "EUR"}"#
}

#[cfg(test)]
mod tests {
    use super::*;
    use granary::silo::Silo;
    use sha2::{Digest, Sha256};

    async fn seed(silo: &Silo, tenant: &str, idempotency_key: &str) {
        let key = format!("{tenant}|{idempotency_key}");
        silo.put(&key, sample_body().to_vec()).await.unwrap();
        let by_body = format!("{:x}", Sha256::digest(sample_body()));
        silo.put(&by_body, Vec::new()).await.unwrap();
    }

    #[tokio::test]
    async fn replays_stored_body() {
        let silo = Silo::memory();
        seed(&silo, "t1", "k1").await;
        silo.claim("k1").await.unwrap();
        assert!(silo.get("t1|k1").await.unwrap().is_some());
        silo.complete("k1", b"done").await.unwrap();
    }
}
