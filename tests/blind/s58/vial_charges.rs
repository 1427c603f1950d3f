use std::sync::{Mutex, OnceLock};

use memcached::proto::{Operation, ProtoType};
use memcached::Client as McClient;
use serde::{Deserialize, Serialize};
use vial::prelude::*;

routes! {
    POST "/v1/charges" => create_charge;
    GET "/v1/accounts/:id/summary" => account_summary;
}

static CACHE: OnceLock<Mutex<McClient>> = OnceLock::new();

fn cache() -> &'static Mutex<McClient> {
    CACHE.get_or_init(|| {
        let client = McClient::connect(&[("tcp://127.0.0.1:11211", 1)], ProtoType::Binary)
            .expect("memcached reachable at boot");
        Mutex::new(client)
    })
}

#[derive(Deserialize)]
struct ChargeForm {
    amount_cents: i64,
    currency: String,
    source: String,
}

#[derive(Serialize)]
struct ChargeReceipt<'a> {
    id: String,
    amount_cents: i64,
    currency: &'a str,
    status: &'static str,
}

fn create_charge(req: Request) -> impl Responder {
    let Some(key) = req.header("Idempotency-Key") else {
        return Response::from(400).with_body("missing Idempotency-Key");
    };
    let (Some(tenant), Some(user_id)) = (req.header("X-Auth-Tenant"), req.header("X-Auth-User")) else {
        return Response::from(401).with_body("unauthenticated");
    };

    let receipt_key = format!("{}/{}/{}/{}", tenant, user_id, "charge", key);
    let mut mc = cache().lock().unwrap();
    if let Ok((cached, _flags)) = mc.get(receipt_key.as_bytes()) {
        log::info!("charge replayed for {}", format!("{}/{}", tenant, key));
        return Response::from(200)
            .with_header("Idempotent-Replayed", "true")
            .with_body(String::from_utf8_lossy(&cached).into_owned());
    }

    let form: ChargeForm = match serde_json::from_str(&req.body()) {
        Ok(f) => f,
        Err(e) => return Response::from(422).with_body(e.to_string()),
    };
    let receipt = ChargeReceipt {
        id: format!("ch_{}", nanoid::nanoid!(16)),
        amount_cents: form.amount_cents,
        currency: &form.currency,
        status: "succeeded",
    };
    let body = serde_json::to_string(&receipt).unwrap_or_default();
    let _ = mc.set(receipt_key.as_bytes(), body.as_bytes(), 0, 86_400);
    let _ = form.source;
    Response::from(201).with_json(&receipt)
}

fn account_summary(req: Request) -> impl Responder {
    let Some(id) = req.arg("id") else {
        return Response::from(404);
    };
    let summary_key = format!("acct:{}:summary", id);
    let mut mc = cache().lock().unwrap();
    match mc.get(summary_key.as_bytes()) {
        Ok((bytes, _)) => Response::from(200).with_body(String::from_utf8_lossy(&bytes).into_owned()),
        Err(_) => Response::from(404),
    }
}
