//! The layer's guarantees on `MemoryStore`, plus what does not depend on
//! the store (413, optional keys).

mod support;

use http::Request;
use http_body_util::Full;
use hyper::body::Bytes;
use idem_scope::{IdempotencyLayer, MemoryStore};
use support::scenarios::{self, request, send, BODY};
use support::service::{self, AppState};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_store_keeps_every_guarantee() {
    scenarios::all(MemoryStore::new()).await;
}

#[tokio::test]
async fn oversized_body_is_413_and_runs_nothing() {
    let state = AppState::default();
    let layer = IdempotencyLayer::new(MemoryStore::new(), service::scope).max_body(16);
    let app = service::app_with_layer(state.clone(), layer);
    let big = vec![b'x'; 17];
    let r = send(&app, request("/v1/charges", "acme", "u1", "k", &big, &[]))
        .await
        .unwrap();
    assert_eq!(r.status, 413);
    let ok = send(
        &app,
        request("/v1/charges", "acme", "u1", "k", &big[..16], &[]),
    )
    .await
    .unwrap();
    assert_eq!(ok.status, 201);
    assert_eq!(state.executions(), 1);
}

#[tokio::test]
async fn optional_layer_passes_keyless_requests_and_guards_keyed_ones() {
    let state = AppState::default();
    let layer = IdempotencyLayer::new(MemoryStore::new(), service::scope).optional();
    let app = service::app_with_layer(state.clone(), layer);
    let keyless = || {
        Request::post("/v1/charges")
            .header("x-tenant-id", "acme")
            .header("x-user-id", "u1")
            .body(Full::new(Bytes::from_static(BODY)))
            .unwrap()
    };
    for _ in 0..2 {
        let r = send(&app, keyless()).await.unwrap();
        assert_eq!((r.status, r.replayed), (201, false));
    }
    let keyed = || request("/v1/charges", "acme", "u1", "k-opt", BODY, &[]);
    assert!(!send(&app, keyed()).await.unwrap().replayed);
    assert!(send(&app, keyed()).await.unwrap().replayed);
    assert_eq!(state.executions(), 3);

    // Required (the default): no key is a 400 problem.
    let strict_app = service::app(AppState::default());
    let r = send(&strict_app, keyless()).await.unwrap();
    assert_eq!(r.status, 400);
    let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["type"], "tag:idem-scope,2026:problem:missing-key");
}
