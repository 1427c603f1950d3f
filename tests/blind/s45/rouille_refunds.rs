use dashmap::DashMap;
use rouille::input::json_input;
use rouille::{router, Request, Response};
use serde::Deserialize;

#[derive(Deserialize)]
struct RefundBody {
    charge_id: String,
    amount_minor: i64,
}

pub struct RefundService {
    /// merchant-scoped key -> refund id
    seen: DashMap<String, String>,
    psp: PspClient,
}

impl RefundService {
    pub fn route(&self, request: &Request) -> Response {
        router!(request,
            (POST) (/v1/refunds) => { self.create_refund(request) },
            (GET) (/v1/refunds/{id: String}) => { self.show(&id) },
            _ => Response::empty_404()
        )
    }

    fn create_refund(&self, request: &Request) -> Response {
        let merchant_id = match request.header("X-Merchant-Id") {
            Some(m) if !m.is_empty() => m.to_owned(),
            _ => return Response::text("unknown merchant").with_status_code(401),
        };
        let client_ref = match request.header("Idempotency-Key") {
            Some(v) => v.trim().to_owned(),
            None => return Response::text("Idempotency-Key required").with_status_code(400),
        };
        let body: RefundBody = match json_input(request) {
            Ok(b) => b,
            Err(e) => return Response::text(format!("bad refund body for key {client_ref}: {e}")).with_status_code(400),
        };
        let slot = format!("{}:{}", merchant_id, client_ref);
        if let Some(existing) = self.seen.get(&slot) {
            return Response::json(&serde_json::json!({ "refund_id": existing.value().as_str(), "replayed": true }));
        }
        let refund_id = self.psp.refund(&body.charge_id, body.amount_minor);
        self.seen.insert(slot, refund_id.clone());
        Response::json(&serde_json::json!({ "refund_id": refund_id }))
    }

    fn show(&self, id: &str) -> Response {
        let cache_key = format!("refund:{}:view", id);
        match self.psp.lookup(&cache_key) {
            Some(r) => Response::json(&r),
            None => Response::empty_404(),
        }
    }
}
