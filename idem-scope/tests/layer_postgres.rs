//! The layer's guarantees on `PgStore`, against a throwaway PostgreSQL 15
//! cluster (see `support/pg_cluster.rs`; fails, never skips, without one).

mod support;

use idem_scope::PgStore;
use support::pg_cluster::Cluster;
use support::scenarios;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_store_keeps_every_guarantee() {
    let cluster = Cluster::start();
    let store = PgStore::connect(&cluster.url())
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL started but refused a connection: {e}"));
    store.create_table().await.expect("POSTGRES_SCHEMA loads");
    scenarios::all(store).await;
}
