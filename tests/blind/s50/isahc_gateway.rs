//! Refund gateway: accepts refund requests and forwards them to the acquirer with isahc.
use http::{HeaderMap, Request, Response, StatusCode};
use isahc::{prelude::*, HttpClient};
use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct Gateway {
    client: HttpClient,
    acquirer_url: String,
    completed: RwLock<BTreeMap<String, Vec<u8>>>,
}

pub struct Caller {
    pub tenant: String,
    pub user_id: String,
}

impl Gateway {
    pub async fn refund(&self, who: &Caller, req: Request<Vec<u8>>) -> Response<Vec<u8>> {
        let Some(k) = header_str(req.headers(), "Idempotency-Key") else {
            return problem(StatusCode::BAD_REQUEST, "missing Idempotency-Key");
        };
        let route = "refunds.create";
        let key = who.tenant.to_owned() + "/" + &who.user_id + "/" + route + "/" + &k;

        if let Some(body) = self.completed.read().unwrap().get(&key) {
            return Response::new(body.clone());
        }

        // The acquirer performs its own dedup; it receives the client's key verbatim.
        let upstream = Request::post(&self.acquirer_url)
            .header("Idempotency-Key", k.as_str())
            .header("Content-Type", "application/json")
            .body(req.body().clone())
            .unwrap();
        let mut resp = match self.client.send_async(upstream).await {
            Ok(r) => r,
            Err(e) => return problem(StatusCode::BAD_GATEWAY, &format!("acquirer error for key {k}: {e}")),
        };
        let body = resp.bytes().await.unwrap_or_default();
        self.completed.write().unwrap().insert(key, body.clone());
        Response::new(body)
    }
}

fn header_str(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name)?.to_str().ok().map(str::to_owned)
}

fn problem(status: StatusCode, detail: &str) -> Response<Vec<u8>> {
    let mut r = Response::new(format!("{{\"title\":\"{}\",\"detail\":\"{}\"}}", status, detail).into_bytes());
    *r.status_mut() = status;
    r.headers_mut().insert("content-type", "application/problem+json".parse().unwrap());
    r
}
