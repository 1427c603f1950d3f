//! The layer's guarantees, run against any [`Store`]: the memory, PostgreSQL
//! and Redis tests call the same functions, in-process (`oneshot`, each
//! request in its own task so a handler panic is contained).

use std::time::{Duration, Instant};

use axum::Router;
use http::Request;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use idem_scope::{
    scoped, Aliases, ClaimToken, Claimed, Fingerprint, IdempotencyLayer, RecordState, Store,
    StoredResponse,
};
use serde_json::Value;
use tower::ServiceExt;

use super::service::{self, AppState};

pub const BODY: &[u8] = br#"{"amount":100,"currency":"EUR"}"#;
const PATIENCE: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub replayed: bool,
    pub retry_after: Option<String>,
    pub body: Bytes,
}

impl Reply {
    pub fn id(&self) -> String {
        let v: Value =
            serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body));
        v["id"].as_str().unwrap_or_default().to_owned()
    }
}

/// A request to `path` as `tenant`/`user` with `key`; `extra` headers too.
pub fn request(
    path: &str,
    tenant: &str,
    user: &str,
    key: &str,
    body: &[u8],
    extra: &[(&str, &str)],
) -> Request<Full<Bytes>> {
    let mut req = Request::post(path)
        .header("x-tenant-id", tenant)
        .header("x-user-id", user)
        .header("idempotency-key", format!("\"{key}\""))
        .header("content-type", "application/json");
    for (name, value) in extra {
        req = req.header(*name, *value);
    }
    req.body(Full::new(Bytes::copy_from_slice(body)))
        .expect("request")
}

/// Sends one request; `None` when the handler panicked.
pub async fn send(app: &Router, req: Request<Full<Bytes>>) -> Option<Reply> {
    let app = app.clone();
    let task = tokio::spawn(async move {
        let res = app.oneshot(req).await.expect("infallible");
        let (parts, body) = res.into_parts();
        let body = body.collect().await.expect("body").to_bytes();
        Reply {
            status: parts.status.as_u16(),
            replayed: parts.headers.get("idempotent-replayed").is_some(),
            retry_after: parts
                .headers
                .get("retry-after")
                .map(|v| v.to_str().unwrap_or_default().to_owned()),
            body,
        }
    });
    task.await.ok()
}

async fn must(app: &Router, req: Request<Full<Bytes>>) -> Reply {
    send(app, req)
        .await
        .expect("the handler must not panic here")
}

/// Retries `req()` while it is answered 409 (the release is asynchronous);
/// fails after [`PATIENCE`].
async fn retry_until_not_409(app: &Router, req: impl Fn() -> Request<Full<Bytes>>) -> Reply {
    let start = Instant::now();
    loop {
        let r = must(app, req()).await;
        if r.status != 409 {
            return r;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "the claim was never released: still 409 after {PATIENCE:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// N identical requests at once: one runs, the others get 409 (or, if
/// they arrive after it finished, its replay).
pub async fn concurrent_identical_requests_run_once<St: Store>(store: St, n: usize) {
    let state = AppState::default();
    let app = service::app_with(state.clone(), store);
    let slow = [("x-test-delay-ms", "300")];
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let app = app.clone();
            let req = request("/v1/charges", "acme", "u1", "conc-1", BODY, &slow);
            tokio::spawn(async move { must(&app, req).await })
        })
        .collect();
    let mut replies = Vec::new();
    for t in tasks {
        replies.push(t.await.expect("task"));
    }
    assert_eq!(state.executions(), 1, "the handler ran more than once");
    let created: Vec<_> = replies
        .iter()
        .filter(|r| r.status == 201 && !r.replayed)
        .collect();
    assert_eq!(created.len(), 1, "{replies:?}");
    let id = created[0].id();
    for r in &replies {
        match r.status {
            201 => assert_eq!(r.id(), id),
            409 => assert_eq!(r.retry_after.as_deref(), Some("1")),
            other => panic!("unexpected status {other}: {r:?}"),
        }
    }
    let retry = must(
        &app,
        request("/v1/charges", "acme", "u1", "conc-1", BODY, &[]),
    )
    .await;
    assert_eq!((retry.status, retry.replayed, retry.id()), (201, true, id));
}

/// Replay, 422, and scoping by tenant, principal and route.
pub async fn replay_mismatch_and_scope<St: Store>(store: St) {
    let state = AppState::default();
    let app = service::app_with(state.clone(), store);
    let req = |path, tenant, user, body| request(path, tenant, user, "k-scope", body, &[]);
    let first = must(&app, req("/v1/charges", "acme", "u1", BODY)).await;
    assert_eq!((first.status, first.replayed), (201, false));
    let retry = must(&app, req("/v1/charges", "acme", "u1", BODY)).await;
    assert_eq!((retry.status, retry.replayed), (201, true));
    assert_eq!(retry.body, first.body);
    let other = must(&app, req("/v1/charges", "acme", "u1", b"{\"amount\":1}")).await;
    assert_eq!(other.status, 422);
    for (path, tenant, user) in [
        ("/v1/charges", "globex", "u1"),
        ("/v1/charges", "acme", "u2"),
        ("/v1/refunds", "acme", "u1"),
    ] {
        let r = must(&app, req(path, tenant, user, BODY)).await;
        assert_eq!(
            (r.status, r.replayed),
            (201, false),
            "{path} {tenant} {user}"
        );
        assert_ne!(r.id(), first.id());
    }
    assert_eq!(state.executions(), 4);
}

/// 5xx, panic and a dropped request future all release the claim.
pub async fn every_failure_releases<St: Store>(store: St) {
    let state = AppState::default();
    let app = service::app_with(state.clone(), store.clone());
    let req =
        |key: &str, extra: &[(&str, &str)]| request("/v1/charges", "acme", "u1", key, BODY, extra);

    let failed = must(&app, req("k-5xx", &[("x-test-fail", "1")])).await;
    assert_eq!(failed.status, 503);
    let retry = retry_until_not_409(&app, || req("k-5xx", &[])).await;
    assert_eq!((retry.status, retry.replayed), (201, false));

    assert!(send(&app, req("k-panic", &[("x-test-panic", "1")]))
        .await
        .is_none());
    let retry = retry_until_not_409(&app, || req("k-panic", &[])).await;
    assert_eq!((retry.status, retry.replayed), (201, false));

    // The client goes away while the handler runs: the future is dropped.
    let held = {
        let app = app.clone();
        let r = req("k-drop", &[("x-test-hold", "1")]);
        tokio::spawn(async move { app.oneshot(r).await })
    };
    let key = scoped("acme", "u1", "POST /v1/charges", "k-drop").unwrap();
    wait_for(&store, &key, Some(RecordState::InProgress)).await;
    // The record is in progress as soon as the claim is written, which can
    // be before the layer has its guard: abort once the handler runs.
    let start = Instant::now();
    while state.holding() == 0 {
        assert!(start.elapsed() < PATIENCE, "the held handler never ran");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    held.abort();
    let _ = held.await;
    wait_for(&store, &key, None).await;
    let retry = must(&app, req("k-drop", &[])).await;
    assert_eq!((retry.status, retry.replayed), (201, false));
    assert_eq!(state.executions(), 3);
}

async fn wait_for<St: Store>(store: &St, key: &idem_scope::ScopedKey, want: Option<RecordState>) {
    let start = Instant::now();
    loop {
        let now = store.lookup(key).await.expect("lookup");
        if now.as_ref().map(|(r, _)| r.state) == want {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "record never reached {want:?}: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A claim past its lease is taken over; its old owner can then neither
/// complete nor release the new claim.
pub async fn stale_owner_cannot_overwrite<St: Store>(store: St) {
    let key = scoped("acme", "u1", "POST /v1/charges", "k-stale").unwrap();
    let fp = Fingerprint::of("POST /v1/charges", BODY);
    let lease = Duration::from_millis(100);
    // idem-lint: allow(missing-release) -- the test abandons this claim on purpose, to exercise the takeover
    let Claimed::New(old) = store.claim(&key, &fp, lease).await.unwrap() else {
        panic!("first claim must be new");
    };
    assert!(matches!(
        store.claim(&key, &fp, lease).await.unwrap(),
        Claimed::Existing(_, None)
    ));
    tokio::time::sleep(Duration::from_millis(250)).await;
    let Claimed::New(new) = store.claim(&key, &fp, lease * 100).await.unwrap() else {
        panic!("a claim past its lease must be taken over");
    };
    assert_ne!(old, new);
    let response = StoredResponse {
        status: 201,
        headers: vec![("content-type".into(), b"application/json".to_vec())],
        body: b"{\"id\":\"late\"}".to_vec(),
    };
    let ttl = Duration::from_secs(60);
    assert!(!store.complete(&key, &old, &response, ttl).await.unwrap());
    assert!(!store.release(&key, &old).await.unwrap());
    let (record, stored) = store.lookup(&key).await.unwrap().expect("new claim kept");
    assert_eq!((record.state, stored), (RecordState::InProgress, None));
    let mine = StoredResponse {
        body: b"{\"id\":\"mine\"}".to_vec(),
        ..response
    };
    assert!(store.complete(&key, &new, &mine, ttl).await.unwrap());
    assert!(
        !store.release(&key, &new).await.unwrap(),
        "completed: not released"
    );
    let (record, stored) = store.lookup(&key).await.unwrap().expect("completed");
    assert_eq!((record.state, stored), (RecordState::Completed, Some(mine)));
    assert_eq!(record.fingerprint, fp);
    assert!(!store.release(&key, &ClaimToken::mint()).await.unwrap());
}

/// Tenant `globex` merges into `acme`: a retry sent after the merge (now
/// resolved to `acme`) replays the charge made before it; without the alias
/// it would run twice. New records go under the new scope only.
pub async fn tenant_merge_retry_replays<St: Store>(store: St) {
    let state = AppState::default();
    let aliases = Aliases::new();
    let layer = IdempotencyLayer::new(store.clone(), service::scope).aliases(aliases.clone());
    let app = service::app_with_layer(state.clone(), layer);
    let req = |tenant, key| request("/v1/charges", tenant, "u1", key, BODY, &[]);

    let before = must(&app, req("globex", "k-merge")).await;
    assert_eq!((before.status, before.replayed), (201, false));
    // Control: with no alias, the moved retry is a new request.
    let unaliased = must(&app, req("acme", "k-merge-control")).await;
    assert_eq!(unaliased.status, 201);
    let _ = must(&app, req("globex", "k-merge-control")).await;
    assert_eq!(state.executions(), 3, "control: runs under both scopes");

    aliases.merge_tenant("globex", "acme", Duration::from_secs(3600));
    let after = must(&app, req("acme", "k-merge")).await;
    assert_eq!((after.status, after.replayed), (201, true));
    assert_eq!(after.id(), before.id());
    let other_body = must(
        &app,
        request("/v1/charges", "acme", "u1", "k-merge", b"{}", &[]),
    )
    .await;
    assert_eq!(other_body.status, 422);
    assert_eq!(state.executions(), 3, "the merged retry did not run again");
    let new_key = scoped("acme", "u1", "POST /v1/charges", "k-merge").unwrap();
    assert!(
        store.lookup(&new_key).await.unwrap().is_none(),
        "nothing is written under the new scope for an aliased hit"
    );

    let fresh = must(&app, req("acme", "k-after-merge")).await;
    assert_eq!((fresh.status, fresh.replayed), (201, false));
    let old = scoped("globex", "u1", "POST /v1/charges", "k-after-merge").unwrap();
    let new = scoped("acme", "u1", "POST /v1/charges", "k-after-merge").unwrap();
    assert!(store.lookup(&old).await.unwrap().is_none());
    assert!(store.lookup(&new).await.unwrap().is_some());
}

/// Every scenario, in order, on one store.
pub async fn all<St: Store>(store: St) {
    replay_mismatch_and_scope(store.clone()).await;
    every_failure_releases(store.clone()).await;
    stale_owner_cannot_overwrite(store.clone()).await;
    tenant_merge_retry_replays(store.clone()).await;
    concurrent_identical_requests_run_once(store, 16).await;
}
