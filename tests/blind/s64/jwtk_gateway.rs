use std::time::Duration;

use idem_scope::{scoped, Problem};
use jwtk::{HeaderAndClaims, Verifier};
use moraine::extract::Head;
use moraine::{Reply, Status};
use serde_json::{Map, Value};
use sextant::locker::Locker;

const GLOBAL_ORG: &str = "global";

pub struct Gateway<V: Verifier> {
    verifier: V,
    locker: Locker,
    upstream: crate::upstream::Upstream,
}

impl<V: Verifier> Gateway<V> {
    fn claims(&self, head: &Head) -> Option<HeaderAndClaims<Map<String, Value>>> {
        let token = head.header("authorization")?.strip_prefix("Bearer ")?;
        jwtk::verify::<Map<String, Value>>(token, &self.verifier).ok()
    }

    pub async fn forward(&self, head: Head, body: Vec<u8>) -> Reply {
        let Some(raw_key) = head.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let Some(hc) = self.claims(&head) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let extra = &hc.claims().extra;
        let org_id = match extra.get("org").and_then(Value::as_str) {
            Some(v) => v.to_owned(),
            None => GLOBAL_ORG.to_owned(),
        };
        let Some(sub) = hc.claims().sub.clone() else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        if raw_key.contains(':') {
            return Reply::problem(Problem::invalid_key("key must not contain ':'"));
        }
        let client_key: String = raw_key.chars().filter(|c| *c != '#').collect();
        let route = head.path().to_owned();

        let sk = match scoped(&org_id, &sub, &route, &client_key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.locker.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let resp = match self.upstream.call(&route, &body).await {
            Ok(r) => r,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let _ = self.locker.put(sk.storage_key(), &resp, Duration::from_secs(86_400)).await;
        Reply::bytes(Status::OK, resp)
    }
}
