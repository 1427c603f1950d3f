//! End-to-end: the example service on 127.0.0.1:0, driven over real HTTP.

use std::net::SocketAddr;
use std::time::Duration;

use http::{HeaderMap, Request};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use serde_json::Value;

#[allow(dead_code)]
#[path = "../examples/charge_service.rs"]
mod service;

const KEY: &str = "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"";
const BODY: &[u8] = br#"{"amount":100,"currency":"EUR"}"#;
const TIMEOUT: Duration = Duration::from_secs(20);

type Error = Box<dyn std::error::Error + Send + Sync>;

struct Reply {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }
}

struct Server {
    addr: SocketAddr,
    state: service::AppState,
}

async fn start() -> Server {
    let state = service::AppState::default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    let app = service::app(state.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });
    Server { addr, state }
}

impl Server {
    /// One request on a fresh connection; a handler panic surfaces as `Err`.
    async fn try_post(
        &self,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Result<Reply, Error> {
        let stream = tokio::net::TcpStream::connect(self.addr).await?;
        let (mut sender, conn) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(conn);
        let mut req = Request::post(path).header("host", self.addr.to_string());
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let res = sender
            .send_request(req.body(Full::new(Bytes::copy_from_slice(body)))?)
            .await?;
        let (parts, body) = res.into_parts();
        let body = body.collect().await?.to_bytes();
        Ok(Reply {
            status: parts.status.as_u16(),
            headers: parts.headers,
            body,
        })
    }

    async fn post(&self, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        tokio::time::timeout(TIMEOUT, self.try_post(path, headers, body))
            .await
            .expect("request timed out")
            .unwrap_or_else(|e| panic!("POST {path}: {e}"))
    }

    /// Polls the store (never sleeps a fixed time) until `in_flight == n`.
    async fn wait_in_flight(&self, n: usize) {
        let waited = tokio::time::timeout(TIMEOUT, async {
            while self.state.in_flight() != n {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        });
        waited.await.unwrap_or_else(|_| {
            panic!(
                "in_flight never reached {n} (now {})",
                self.state.in_flight()
            )
        });
    }
}

fn who(tenant: &'static str, user: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        ("x-tenant-id", tenant),
        ("x-user-id", user),
        ("idempotency-key", KEY),
        ("content-type", "application/json"),
    ]
}

fn with(
    mut h: Vec<(&'static str, &'static str)>,
    extra: (&'static str, &'static str),
) -> Vec<(&'static str, &'static str)> {
    h.push(extra);
    h
}

fn assert_problem(reply: &Reply, status: u16) -> Value {
    assert_eq!(reply.status, status, "body: {:?}", reply.body);
    assert_eq!(
        reply.headers["content-type"],
        idem_scope::PROBLEM_CONTENT_TYPE
    );
    let body = reply.json();
    assert_eq!(body["status"], status);
    body
}

#[tokio::test]
async fn two_tenants_same_key_get_two_charges() {
    let s = start().await;
    let a = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    let b = s.post("/v1/charges", &who("tenant_b", "u1"), BODY).await;
    assert_eq!((a.status, b.status), (201, 201));
    assert_ne!(
        a.json()["id"],
        b.json()["id"],
        "tenant B must not receive tenant A's charge"
    );
    assert!(!b.headers.contains_key("idempotent-replayed"));
}

#[tokio::test]
async fn same_key_on_refund_route_executes_the_refund() {
    let s = start().await;
    let charge = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    let refund = s.post("/v1/refunds", &who("tenant_a", "u1"), BODY).await;
    assert_eq!((charge.status, refund.status), (201, 201));
    assert_eq!(charge.json()["object"], "charge");
    assert_eq!(refund.json()["object"], "refund");
    assert!(!refund.headers.contains_key("idempotent-replayed"));
}

#[tokio::test]
async fn byte_identical_retry_is_replayed() {
    let s = start().await;
    let first = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    let retry = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    assert_eq!(first.status, 201);
    assert_eq!((retry.status, &retry.body), (first.status, &first.body));
    assert_eq!(retry.headers["idempotent-replayed"], "true");
    assert_eq!(retry.headers["content-type"], "application/json");
    assert_eq!(first.headers["content-type"], "application/json");
}

#[tokio::test]
async fn same_key_with_another_body_is_422() {
    let s = start().await;
    assert_eq!(
        s.post("/v1/charges", &who("tenant_a", "u1"), BODY)
            .await
            .status,
        201
    );
    let other = s
        .post(
            "/v1/charges",
            &who("tenant_a", "u1"),
            br#"{"amount":999,"currency":"EUR"}"#,
        )
        .await;
    let body = assert_problem(&other, 422);
    assert_eq!(
        body["idempotency_key"],
        "8e03978e-40d5-43e8-bc93-6894a57f9324"
    );
    let text = String::from_utf8_lossy(&other.body);
    assert!(
        !text.contains("tenant_a") && !text.contains("u1") && !text.contains("charge_"),
        "{text}"
    );
}

#[tokio::test]
async fn retry_while_first_is_running_is_409_with_retry_after() {
    let s = start().await;
    let held = with(who("tenant_a", "u1"), ("x-test-hold", "1"));
    let first = {
        let (addr, state) = (s.addr, s.state.clone());
        tokio::spawn(async move {
            Server { addr, state }
                .post("/v1/charges", &held, BODY)
                .await
        })
    };
    s.wait_in_flight(1).await;
    let retry = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    let body = assert_problem(&retry, 409);
    let retry_after: u64 = retry.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1);
    let text = String::from_utf8_lossy(&retry.body);
    assert!(!text.contains("tenant_a") && !text.contains("u1"), "{text}");
    assert_eq!(
        body["idempotency_key"],
        "8e03978e-40d5-43e8-bc93-6894a57f9324"
    );

    s.state.resume_held();
    let first = first.await.unwrap();
    assert_eq!(first.status, 201);
    let after = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    assert_eq!((after.status, &after.body), (201, &first.body));
}

#[tokio::test]
async fn panic_after_claim_releases_it_and_the_retry_succeeds() {
    let s = start().await;
    let crashing = with(who("tenant_a", "u1"), ("x-test-panic", "1"));
    let crashed = tokio::time::timeout(TIMEOUT, s.try_post("/v1/charges", &crashing, BODY))
        .await
        .unwrap();
    assert!(
        crashed.as_ref().map_or(true, |r| r.status >= 500),
        "the panicking request must not succeed"
    );
    // Released by the guard's spawned task, not by the 5-minute lease.
    s.wait_in_flight(0).await;
    let retry = s.post("/v1/charges", &who("tenant_a", "u1"), BODY).await;
    assert_eq!(retry.status, 201, "body: {:?}", retry.body);
    assert!(!retry.headers.contains_key("idempotent-replayed"));
}

#[tokio::test]
async fn early_return_releases_the_claim() {
    let s = start().await;
    let failing = s
        .post(
            "/v1/charges",
            &with(who("tenant_a", "u1"), ("x-test-fail", "1")),
            BODY,
        )
        .await;
    assert_eq!(failing.status, 503);
    s.wait_in_flight(0).await;
    assert_eq!(
        s.post("/v1/charges", &who("tenant_a", "u1"), BODY)
            .await
            .status,
        201
    );
}

#[tokio::test]
async fn missing_or_invalid_key_is_400_and_missing_identity_is_401() {
    let s = start().await;
    let base = [("x-tenant-id", "tenant_a"), ("x-user-id", "u1")];
    let missing = s.post("/v1/charges", &base, BODY).await;
    assert!(assert_problem(&missing, 400)["type"]
        .as_str()
        .unwrap()
        .ends_with("missing-key"));

    let token = s
        .post(
            "/v1/charges",
            &[base[0], base[1], ("idempotency-key", "\"unterminated")],
            BODY,
        )
        .await;
    let body = assert_problem(&token, 400);
    assert!(
        body["type"].as_str().unwrap().ends_with("invalid-key"),
        "{body}"
    );

    let two_lines = [
        base[0],
        base[1],
        ("idempotency-key", "\"a\""),
        ("idempotency-key", "\"a\""),
    ];
    assert_problem(&s.post("/v1/charges", &two_lines, BODY).await, 400);

    let anonymous = s
        .post("/v1/charges", &[("idempotency-key", KEY)], BODY)
        .await;
    assert_problem(&anonymous, 401);
    assert_eq!(s.state.in_flight(), 0);
}
