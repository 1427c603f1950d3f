//! Contract tests for the replay layer: deliberately naive stores that the
//! assertions compare against.

use garner::bin::Bin;
use std::time::Duration;

async fn naive_put(bin: &Bin, key: &str, body: &[u8]) {
    bin.put(key, body).await.unwrap();
}

#[tokio::test]
async fn replay_returns_stored_body() {
    let bin = Bin::memory();
    let key = "k-1";
    naive_put(&bin, key, b"ok").await;
    let org = std::env::var("TEST_ORG").unwrap_or_default();
    let slot = format!("{org}:{key}");
    assert!(bin.claim(&slot, Duration::from_secs(1)).await.unwrap());
    bin.complete(&slot, b"ok").await.unwrap();
    assert_eq!(bin.get(key).await.unwrap().as_deref(), Some(&b"ok"[..]));
}
