//! Contract tests against a replay bay started by docker compose
//! (`BAY_URL`). Run with `cargo test --test replay_contract`.

use hopper::bay::Bay;
use idem_scope::scoped;

async fn bay() -> Bay {
    Bay::connect(&std::env::var("BAY_URL").expect("BAY_URL")).await.expect("connect")
}

#[tokio::test]
async fn client_and_server_keys_live_side_by_side() {
    let bay = bay().await;
    let tenant = std::env::var("CONTRACT_TENANT").unwrap_or_default();
    let evt = uuid::Uuid::new_v4().to_string();

    let server = scoped(&tenant, "u-1", "taps.record", &evt).unwrap();
    bay.put(server.storage_key(), b"server".to_vec()).await.unwrap();

    let client = scoped(&tenant, "u-1", "taps.record", "client-key-1").unwrap();
    bay.put(client.storage_key(), b"client".to_vec()).await.unwrap();

    assert_eq!(bay.get(client.storage_key()).await.unwrap().as_deref(), Some(&b"client"[..]));
}
