use std::sync::Arc;

use sincere::{App, Context};
use sluice::kv::SyncBucket;

use crate::auth::{authenticate, Ident};
use crate::payouts::{schedule_payout, PayoutForm};

pub fn build(bucket: Arc<SyncBucket>) -> App {
    let mut app = App::new();
    app.post("/payouts", move |context: &mut Context| payout(&bucket, context));
    app
}

fn payout(bucket: &SyncBucket, context: &mut Context) {
    let ident: Ident = match authenticate(&context.request) {
        Ok(i) => i,
        Err(_) => {
            context.response.status_code(401, "Unauthorized");
            return;
        }
    };
    let tenant_id = match ident.tenant_id.clone() {
        Some(t) => t,
        None => {
            context.response.status_code(403, "Forbidden").from_text("token carries no tenant").unwrap();
            return;
        }
    };
    let user_id = ident.user_id.clone();

    let route = "payout";
    let mk = |k: String| format!("{tenant_id}:{user_id}:{route}:{k}");
    let Some(slot) = context.request.header("X-Idempotency-Key").map(mk) else {
        context.response.status_code(400, "Bad Request").from_text("X-Idempotency-Key is required").unwrap();
        return;
    };

    if let Ok(Some(prev)) = bucket.get(&slot) {
        context.response.header(("Idempotent-Replayed", "true")).from_json(prev).unwrap();
        return;
    }

    let form: PayoutForm = match context.request.bind_json() {
        Ok(f) => f,
        Err(e) => {
            context.response.status_code(422, "Unprocessable Entity").from_text(e.to_string()).unwrap();
            return;
        }
    };
    match schedule_payout(&tenant_id, &user_id, &form) {
        Ok(p) => {
            let out = serde_json::to_value(&p).unwrap();
            let _ = bucket.put(&slot, &out);
            context.response.status_code(201, "Created").from_json(out).unwrap();
        }
        Err(e) => {
            context.response.status_code(502, "Bad Gateway").from_text(e.to_string()).unwrap();
        }
    }
}
