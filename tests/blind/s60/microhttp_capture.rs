use std::sync::RwLock;

use linked_hash_map::LinkedHashMap;
use micro_http::{Body, Method, Request, Response, StatusCode, Version};
use uuid::Uuid;

use crate::psp::{self, PspResult};

const CAPACITY: usize = 50_000;

#[derive(Clone, Copy)]
enum Op {
    Capture,
    Void,
    Refund,
}

pub struct CaptureApi {
    seen: RwLock<LinkedHashMap<String, Vec<u8>>>,
}

fn respond(status: StatusCode, body: Vec<u8>, request_id: &str) -> Response {
    let mut rsp = Response::new(Version::Http11, status);
    rsp.set_body(Body::new(body));
    rsp.set_custom_header("X-Request-Id", request_id);
    rsp
}

fn slot_for(op: Op, tenant_id: &str, user_id: &str, k: Option<&String>) -> Option<String> {
    let route = match op {
        Op::Capture => "capture",
        Op::Void => "void",
        Op::Refund => "refund",
    };
    match k {
        Some(k) => Some(tenant_id.to_owned() + "/" + user_id + "/" + route + "/" + k),
        None => None,
    }
}

impl CaptureApi {
    pub fn handle(&self, req: &Request, tenant_id: &str, user_id: &str) -> Response {
        let request_id = Uuid::new_v4().simple().to_string();
        let path = req.uri().get_abs_path();
        let op = match (req.method(), path.rsplit('/').next()) {
            (Method::Post, Some("capture")) => Op::Capture,
            (Method::Post, Some("void")) => Op::Void,
            (Method::Post, Some("refund")) => Op::Refund,
            _ => return respond(StatusCode::NotFound, Vec::new(), &request_id),
        };
        let payment_id = path.split('/').nth(2).unwrap_or_default().replace('-', "");

        let headers = req.headers.custom_entries();
        let Some(slot) = slot_for(op, tenant_id, user_id, headers.get("Idempotency-Key")) else {
            return respond(StatusCode::BadRequest, b"missing Idempotency-Key".to_vec(), &request_id);
        };

        if let Some(prev) = self.seen.write().unwrap().get_refresh(&slot) {
            return respond(StatusCode::Ok, prev.clone(), &request_id);
        }

        let result: PspResult = match op {
            Op::Capture => psp::capture(&payment_id),
            Op::Void => psp::void(&payment_id),
            Op::Refund => psp::refund(&payment_id),
        };
        let body = result.to_json();

        let mut seen = self.seen.write().unwrap();
        seen.insert(slot, body.clone());
        while seen.len() > CAPACITY {
            seen.pop_front();
        }
        respond(StatusCode::Ok, body, &request_id)
    }
}
