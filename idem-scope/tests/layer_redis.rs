//! The layer's guarantees on `RedisStore`, against a throwaway `redis-server`
//! (see `support/redis_server.rs`; fails, never skips, without one).

mod support;

use idem_scope::RedisStore;
use support::redis_server::RedisServer;
use support::scenarios;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_store_keeps_every_guarantee() {
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url())
        .await
        .unwrap_or_else(|e| panic!("redis-server started but refused a connection: {e}"));
    scenarios::all(store).await;
}
