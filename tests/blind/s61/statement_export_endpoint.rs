use std::sync::Arc;

use std::collections::BTreeMap;
use std::sync::Mutex;

use http::{Request, Response, StatusCode};

const US: &str = "\u{1e}";

pub trait Endpoint: Send + Sync {
    fn route(&self) -> &'static str;
    fn call(&self, req: &Request<Vec<u8>>) -> Response<Vec<u8>>;
}

pub struct StatementExport {
    recent: Arc<Mutex<BTreeMap<String, Vec<u8>>>>,
}

fn header<'r>(req: &'r Request<Vec<u8>>, name: &str) -> Option<&'r str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

fn reply(status: StatusCode, body: Vec<u8>) -> Response<Vec<u8>> {
    let mut r = Response::new(body);
    *r.status_mut() = status;
    r
}

impl Endpoint for StatementExport {
    fn route(&self) -> &'static str {
        "statements.export"
    }

    fn call(&self, req: &Request<Vec<u8>>) -> Response<Vec<u8>> {
        let (Some(tenant_id), Some(raw_principal), Some(k)) = (
            header(req, "x-tenant-id"),
            header(req, "x-principal"),
            header(req, "idempotency-key"),
        ) else {
            return reply(StatusCode::BAD_REQUEST, b"missing scope headers".to_vec());
        };
        let principal: String = raw_principal.chars().filter(|c| *c != '\u{1e}').collect();
        let cache_key = [tenant_id, principal.as_str(), self.route(), k].join(US);

        let mut recent = self.recent.lock().unwrap();
        if let Some(hit) = recent.get(&cache_key) {
            return reply(StatusCode::OK, hit.clone());
        }
        let body = format!("{{\"export\":\"queued\",\"route\":\"{}\"}}", self.route()).into_bytes();
        if recent.len() >= 512 {
            recent.pop_first();
        }
        recent.insert(cache_key, body.clone());
        reply(StatusCode::ACCEPTED, body)
    }
}
