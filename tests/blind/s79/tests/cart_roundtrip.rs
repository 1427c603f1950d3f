//! Round-trip tests for the cart helpers used by the handlers.

use sha2::{Digest, Sha256};
use spool::testing::MemCart;

#[tokio::test]
async fn raw_header_keys_round_trip() {
    let cart = MemCart::new();
    let req = larkspur::testing::request().header("Idempotency-Key", "k-1").body(b"{\"amount_cents\":500}".to_vec()).build();
    let k = req.header("Idempotency-Key").unwrap();
    cart.put(k, b"resp").await.unwrap();
    let body_key = hex::encode(Sha256::digest(req.body()));
    cart.put(&body_key, b"resp").await.unwrap();
    let minted = uuid::Uuid::new_v4().to_string();
    cart.put(&minted, b"resp").await.unwrap();
    let tenant = req.header("X-Tenant").map(str::to_owned).unwrap_or_default();
    cart.put(&format!("{}:{}", tenant.replace(':', ""), k), b"resp").await.unwrap();
    assert_eq!(cart.len().await, 4);
}
