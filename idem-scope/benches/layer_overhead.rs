//! The layer's cost per request: the example's router with no layer, then
//! behind `IdempotencyLayer` on each store, in one run, as ratios to the
//! bare router. Each layered request carries a new key, so it pays the full
//! claim + complete; the replay row repeats one key.
//!
//! In-process (`tower::ServiceExt::oneshot`, no sockets between client and
//! router) so that the layer's overhead is not hidden by HTTP; PostgreSQL 15
//! and Redis run on loopback, started by the bench itself.
//!
//! `cargo bench -p idem-scope --all-features --bench layer_overhead`

#[allow(dead_code)]
#[path = "../tests/support/pg_cluster.rs"]
mod pg_cluster;
#[allow(dead_code)]
#[path = "../tests/support/redis_server.rs"]
mod redis_server;
#[allow(dead_code)]
#[path = "../examples/charge_service.rs"]
mod service;

use std::time::{Duration, Instant};

use axum::routing::post;
use axum::Router;
use http::Request;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use idem_scope::{MemoryStore, PgStore, RedisStore, Store};
use tower::ServiceExt;

const BODY: &[u8] = br#"{"amount":100,"currency":"EUR"}"#;
const ROUNDS: usize = 5;

fn request(key: &str) -> Request<Full<Bytes>> {
    Request::post("/v1/charges")
        .header("x-tenant-id", "acme")
        .header("x-user-id", "u1")
        .header("idempotency-key", format!("\"{key}\""))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from_static(BODY)))
        .unwrap()
}

/// Median over rounds of the mean time per request.
async fn measure(app: &Router, n: usize, name: &str, same_key: bool) -> Duration {
    let mut means = Vec::new();
    let mut seq = 0u64;
    for round in 0..=ROUNDS {
        let start = Instant::now();
        for _ in 0..n {
            seq += 1;
            let key = if same_key {
                "same".to_owned()
            } else {
                format!("{name}-{seq}")
            };
            let res = app.clone().oneshot(request(&key)).await.unwrap();
            assert_eq!(res.status(), 201, "{name}");
            res.into_body().collect().await.unwrap();
        }
        // Round 0 warms up connections and caches.
        if round > 0 {
            means.push(start.elapsed() / n as u32);
        }
    }
    means.sort();
    means[ROUNDS / 2]
}

fn layered<St: Store>(store: St) -> Router {
    service::app_with(service::AppState::default(), store)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let pg = pg_cluster::Cluster::start();
    let redis = redis_server::RedisServer::start();
    let pg_store = PgStore::connect(&pg.url())
        .await
        .expect("connect PostgreSQL");
    pg_store.create_table().await.expect("schema");
    let redis_store = RedisStore::connect(&redis.url())
        .await
        .expect("connect Redis");

    let bare: Router = Router::new()
        .route("/v1/charges", post(service::charge))
        .with_state(service::AppState::default());
    let n = 2000;
    let base = measure(&bare, n, "bare", false).await;
    let rows = [
        (
            "memory, new key",
            measure(&layered(MemoryStore::new()), n, "mem", false).await,
        ),
        (
            "memory, replay",
            measure(&layered(MemoryStore::new()), n, "memr", true).await,
        ),
        (
            "redis, new key",
            measure(&layered(redis_store.clone()), n, "redis", false).await,
        ),
        (
            "redis, replay",
            measure(&layered(redis_store), n, "redisr", true).await,
        ),
        (
            "postgres, new key",
            measure(&layered(pg_store.clone()), n / 4, "pg", false).await,
        ),
        (
            "postgres, replay",
            measure(&layered(pg_store), n / 4, "pgr", true).await,
        ),
    ];
    println!("| router | per request | ratio to bare |");
    println!("|---|---|---|");
    println!("| bare (no layer) | {base:.2?} | 1.00 |");
    for (name, t) in rows {
        let ratio = t.as_secs_f64() / base.as_secs_f64();
        println!("| layer + {name} | {t:.2?} | {ratio:.2} |");
    }
}
