//! Rust SDK for the payments API (client side), plus its fake server for tests.
use std::collections::HashMap;

pub struct PaymentsClient {
    http: crate::transport::Transport,
    base: String,
}

impl PaymentsClient {
    pub async fn create_payment(&self, req: &crate::CreatePayment, idempotency_key: Option<&str>) -> crate::Result<crate::Payment> {
        let key = idempotency_key.map(str::to_owned).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let mut headers = http::HeaderMap::new();
        headers.insert("Idempotency-Key", key.parse()?);
        headers.insert("x-request-id", uuid::Uuid::new_v4().to_string().parse()?);
        let url = format!("{}/v1/payments", self.base);
        self.http.post_json(&url, headers, req).await
    }
}

#[cfg(feature = "fake-server")]
pub mod fake {
    use std::collections::HashMap;

    #[derive(Default)]
    pub struct FakeServer {
        replies: HashMap<String, Vec<u8>>,
    }

    impl FakeServer {
        pub fn handle(&mut self, headers: &http::HeaderMap, body: &[u8]) -> Vec<u8> {
            let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
            self.replies.entry(key).or_insert_with(|| body.to_vec()).clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_map_roundtrip() {
        let mut store: HashMap<String, Vec<u8>> = HashMap::new();
        let mut headers = http::HeaderMap::new();
        headers.insert("Idempotency-Key", "k-1".parse().unwrap());
        let key = headers.get("Idempotency-Key").unwrap().to_str().unwrap().to_owned();
        let composite = format!("{}:{}", "tenant-a", key);
        store.insert(composite.clone(), b"ok".to_vec());
        assert_eq!(store.get(&composite).unwrap(), b"ok");
    }
}
