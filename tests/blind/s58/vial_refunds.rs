use std::sync::{Arc, LazyLock};

use serde::Deserialize;
use tinyufo::TinyUfo;
use vial::prelude::*;

routes! {
    POST "/v1/refunds" => create_refund;
}

#[derive(Clone, Hash, PartialEq, Eq)]
struct ReplaySlot {
    tenant: String,
    key: String,
}

#[derive(Clone)]
struct StoredReply {
    status: usize,
    body: String,
}

static REPLAYS: LazyLock<TinyUfo<ReplaySlot, Arc<StoredReply>>> =
    LazyLock::new(|| TinyUfo::new(50_000, 50_000));

#[derive(Deserialize)]
struct RefundForm {
    charge_id: String,
    amount_cents: i64,
    reason: Option<String>,
}

fn create_refund(req: Request) -> impl Responder {
    let tenant = match req.header("X-Tenant-Id") {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => return Response::from(401),
    };
    let key = match req.header("Idempotency-Key") {
        Some(k) => k.trim().to_string(),
        None => return Response::from(400).with_body("Idempotency-Key required"),
    };
    let locale = req.header("Accept-Language").unwrap_or("en-US");

    let slot = ReplaySlot { tenant: tenant.clone(), key: key.clone() };
    if let Some(prev) = REPLAYS.get(&slot) {
        return Response::from(prev.status).with_body(prev.body.clone());
    }

    let form: RefundForm = match serde_json::from_str(&req.body()) {
        Ok(f) => f,
        Err(_) => return Response::from(422),
    };
    let reason = form
        .reason
        .as_deref()
        .map(|r| r.replace('|', "/"))
        .unwrap_or_else(|| "requested_by_customer".to_string());

    let body = format!(
        r#"{{"charge":"{}","amount":{},"reason":"{}","locale":"{}"}}"#,
        form.charge_id, form.amount_cents, reason, locale
    );
    let reply = StoredReply { status: 201, body: body.clone() };
    REPLAYS.put(slot, Arc::new(reply), 1);
    Response::from(201).with_body(body)
}
