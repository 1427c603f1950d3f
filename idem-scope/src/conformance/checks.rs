//! The checks themselves: each sends real requests and judges the answers.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Request, Response};
use http_body::Body;
use http_body_util::{BodyExt, Full};
use tower::ServiceExt;

use super::{BoxError, Headers, Outcome, Report, Target};
use crate::ClaimToken;

/// What came back: status, the headers the checks read, the body's id.
#[derive(Debug, Clone)]
struct Reply {
    status: u16,
    replayed: bool,
    retry_after: bool,
    problem: bool,
    has_type: bool,
    id: Option<String>,
    body: Bytes,
}

/// `Err`: no response (the handler panicked, the connection dropped).
type Sent = Result<Reply, String>;

fn show(sent: &Sent) -> String {
    match sent {
        Ok(r) => {
            let mut s = r.status.to_string();
            if let Some(id) = &r.id {
                s.push_str(&format!(" id={id}"));
            }
            if r.replayed {
                s.push_str(" replayed");
            }
            s
        }
        Err(e) => format!("no response ({e})"),
    }
}

/// A first execution: an id, and not marked as a replay.
fn fresh(r: &Reply) -> bool {
    r.id.is_some() && !r.replayed
}

fn ok(sent: &Sent) -> Option<&Reply> {
    sent.as_ref()
        .ok()
        .filter(|r| (200..300).contains(&r.status))
}

struct Kit<'a, S> {
    target: &'a Target<S>,
    /// Unique per run, so keys never collide with earlier runs on a live service.
    run_id: String,
}

impl<S, B> Kit<'_, S>
where
    S: tower::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    fn key(&self, check: &str) -> String {
        format!("{}-{check}", self.run_id)
    }

    /// `template` with every `{nonce}` replaced, so each check's payloads
    /// differ from every other check's (and run's).
    fn body(template: &[u8], nonce: &str) -> Vec<u8> {
        match std::str::from_utf8(template) {
            Ok(text) => text.replace("{nonce}", nonce).into_bytes(),
            Err(_) => template.to_vec(),
        }
    }

    async fn send(
        &self,
        path: &str,
        who: &Headers,
        key: Option<&str>,
        body: &[u8],
        extra: &Headers,
    ) -> Sent {
        let mut req = Request::post(path).header("content-type", "application/json");
        for (name, value) in who.iter().chain(extra) {
            req = req.header(name.as_str(), value.as_str());
        }
        if let Some(key) = key {
            req = req.header("idempotency-key", format!("\"{key}\""));
        }
        let req = req
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(|e| e.to_string())?;
        let service = self.target.service.clone();
        let id_field = self.target.id_field.clone();
        let task = tokio::spawn(async move {
            let res = service
                .oneshot(req)
                .await
                .map_err(|e| e.into().to_string())?;
            let (parts, body) = res.into_parts();
            let body = body
                .collect()
                .await
                .map_err(|e| e.into().to_string())?
                .to_bytes();
            let json: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
            let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
            Ok(Reply {
                status: parts.status.as_u16(),
                replayed: header("idempotent-replayed") == Some("true"),
                retry_after: header("retry-after").is_some(),
                problem: header("content-type")
                    .is_some_and(|t| t.starts_with(crate::PROBLEM_CONTENT_TYPE)),
                has_type: json.as_ref().is_some_and(|j| j["type"].is_string()),
                id: json.as_ref().and_then(|j| match &j[&id_field] {
                    serde_json::Value::String(s) => Some(s.clone()),
                    serde_json::Value::Number(n) => Some(n.to_string()),
                    _ => None,
                }),
                body,
            })
        });
        match task.await {
            Ok(sent) => sent,
            Err(e) if e.is_panic() => Err("the handler panicked".to_owned()),
            Err(e) => Err(e.to_string()),
        }
    }

    async fn pay(&self, who: &Headers, key: &str, body: &[u8], extra: &Headers) -> Sent {
        self.send(&self.target.route.path, who, Some(key), body, extra)
            .await
    }

    /// The same key from two identities must create two resources.
    async fn isolated(&self, check: &'static str, other: &Headers) -> Outcome {
        let t = self.target;
        let key = self.key(check);
        let body = Self::body(&t.route.body, &key);
        let a = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
        let b = self.pay(other, &key, &body, &vec![]).await;
        let passed = match (ok(&a), ok(&b)) {
            (Some(a), Some(b)) => fresh(a) && fresh(b) && a.id != b.id,
            _ => false,
        };
        outcome(check, passed, format!("A: {}; B: {}", show(&a), show(&b)))
    }

    async fn sibling_routes(&self) -> Outcome {
        let t = self.target;
        let key = self.key("sibling");
        let body = Self::body(&t.route.body, &key);
        let sibling_body = Self::body(&t.sibling.body, &key);
        let pay = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
        let sib = self
            .send(
                &t.sibling.path,
                &t.tenant_a,
                Some(&key),
                &sibling_body,
                &vec![],
            )
            .await;
        let passed = match (ok(&pay), ok(&sib)) {
            (Some(p), Some(s)) => fresh(p) && fresh(s) && p.id != s.id,
            _ => false,
        };
        let evidence = format!(
            "{}: {}; {}: {}",
            t.route.path,
            show(&pay),
            t.sibling.path,
            show(&sib)
        );
        outcome("sibling_routes", passed, evidence)
    }

    async fn exact_retry(&self) -> Outcome {
        let t = self.target;
        let key = self.key("retry");
        let body = Self::body(&t.route.body, &key);
        let first = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
        let retry = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
        let passed = match (ok(&first), &retry) {
            (Some(f), Ok(r)) => fresh(f) && r.status == f.status && r.body == f.body,
            _ => false,
        };
        let evidence = format!("first: {}; retry: {}", show(&first), show(&retry));
        outcome("exact_retry_replays", passed, evidence)
    }

    async fn new_key_runs(&self) -> Outcome {
        let t = self.target;
        // One payload, two keys: a legitimate second identical payment.
        let body = Self::body(&t.route.body, &self.key("new"));
        let one = self
            .pay(&t.tenant_a, &self.key("new-1"), &body, &vec![])
            .await;
        let two = self
            .pay(&t.tenant_a, &self.key("new-2"), &body, &vec![])
            .await;
        let passed = match (ok(&one), ok(&two)) {
            (Some(a), Some(b)) => fresh(a) && fresh(b) && a.id != b.id,
            _ => false,
        };
        let evidence = format!("key 1: {}; key 2: {}", show(&one), show(&two));
        outcome("new_key_runs", passed, evidence)
    }

    async fn mismatch(&self) -> Outcome {
        let t = self.target;
        let key = self.key("mismatch");
        let body = Self::body(&t.route.body, &key);
        let other_body = Self::body(&t.other_body, &key);
        let first = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
        let other = self.pay(&t.tenant_a, &key, &other_body, &vec![]).await;
        let passed = ok(&first).is_some_and(fresh) && other.as_ref().is_ok_and(|r| r.status == 422);
        let evidence = format!("first: {}; other payload: {}", show(&first), show(&other));
        outcome("payload_mismatch_422", passed, evidence)
    }

    async fn in_flight(&self) -> Outcome {
        let t = self.target;
        let key = self.key("in-flight");
        let body = Self::body(&t.route.body, &key);
        let first = self.pay(&t.tenant_a, &key, &body, &t.slow);
        let second = async {
            // Long enough for the first to claim, well within its delay.
            tokio::time::sleep(Duration::from_millis(250)).await;
            self.pay(&t.tenant_a, &key, &body, &vec![]).await
        };
        let (first, second) = tokio::join!(first, second);
        let passed = ok(&first).is_some_and(fresh)
            && second
                .as_ref()
                .is_ok_and(|r| r.status == 409 && r.retry_after);
        let retry_after = match &second {
            Ok(r) if r.retry_after => " with Retry-After",
            _ => "",
        };
        let evidence = format!(
            "first (slow): {}; concurrent: {}{retry_after}",
            show(&first),
            show(&second)
        );
        outcome("in_flight_409", passed, evidence)
    }

    async fn missing_key(&self) -> Outcome {
        let t = self.target;
        let body = Self::body(&t.route.body, &self.key("missing"));
        let sent = self
            .send(&t.route.path, &t.tenant_a, None, &body, &vec![])
            .await;
        let passed = sent
            .as_ref()
            .is_ok_and(|r| r.status == 400 && r.problem && r.has_type);
        let evidence = match &sent {
            Ok(r) => format!(
                "{}{}{}",
                show(&sent),
                if r.problem {
                    " problem+json"
                } else {
                    " not problem+json"
                },
                if r.has_type { " with type" } else { "" }
            ),
            Err(_) => show(&sent),
        };
        outcome("missing_key_400", passed, evidence)
    }

    async fn failure_releases(&self) -> Outcome {
        let t = self.target;
        let mut passed = !t.failures.is_empty();
        let mut evidence = Vec::new();
        for (i, failure) in t.failures.iter().enumerate() {
            let key = self.key(&format!("failure-{i}"));
            let body = Self::body(&t.route.body, &key);
            let failed = self.pay(&t.tenant_a, &key, &body, failure).await;
            // The release may be asynchronous: a 409 for up to two seconds is
            // tolerated, one that outlives them is a stuck claim.
            let start = Instant::now();
            let retry = loop {
                let r = self.pay(&t.tenant_a, &key, &body, &vec![]).await;
                let busy = r.as_ref().is_ok_and(|r| r.status == 409);
                if !busy || start.elapsed() > Duration::from_secs(2) {
                    break r;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            let this = ok(&failed).is_none() && ok(&retry).is_some_and(fresh);
            passed &= this;
            let names: Vec<&str> = failure.iter().map(|(n, _)| n.as_str()).collect();
            evidence.push(format!(
                "{}: {} then retry {}",
                names.join("+"),
                show(&failed),
                show(&retry)
            ));
        }
        if t.failures.is_empty() {
            evidence.push("the target names no way to make the handler fail".to_owned());
        }
        outcome("failure_releases", passed, evidence.join("; "))
    }
}

fn outcome(check: &'static str, passed: bool, evidence: String) -> Outcome {
    Outcome {
        check,
        passed,
        evidence,
    }
}

pub(super) async fn all<S, B>(target: &Target<S>) -> Report
where
    S: tower::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let kit = Kit {
        target,
        run_id: format!("kit-{}", &ClaimToken::mint().as_str()[..12]),
    };
    let outcomes = vec![
        kit.isolated("tenant_isolation", &target.tenant_b).await,
        kit.isolated("principal_isolation", &target.principal_b)
            .await,
        kit.sibling_routes().await,
        kit.exact_retry().await,
        kit.new_key_runs().await,
        kit.mismatch().await,
        kit.in_flight().await,
        kit.missing_key().await,
        kit.failure_releases().await,
    ];
    Report { outcomes }
}
