use std::sync::Arc;

use idem_scope::{scoped, Problem};
use sincere::{App, Context};
use sluice::kv::SyncBucket;

use crate::auth::{authenticate, Ident};
use crate::loyalty::{award_points, AwardBody};

pub fn mount(app: &mut App, replays: Arc<SyncBucket>) {
    app.post("/loyalty/award", move |context: &mut Context| award(&replays, context));
}

fn award(replays: &SyncBucket, context: &mut Context) {
    let Some(header) = context.request.header("Idempotency-Key") else {
        context.response.status_code(400, "Bad Request").from_text(Problem::missing_key().to_json()).unwrap();
        return;
    };
    let header = header.trim();
    // some POS terminals wrap the key as ":abc:"
    let client_key = header.trim_matches(':');
    let ident: Ident = match authenticate(&context.request) {
        Ok(i) => i,
        Err(_) => {
            context.response.status_code(401, "Unauthorized");
            return;
        }
    };
    let sk = match scoped(&ident.merchant_id, &ident.user_id, "loyalty.award", client_key) {
        Ok(k) => k,
        Err(e) => {
            context.response.status_code(400, "Bad Request").from_text(Problem::invalid_key(&e.to_string()).to_json()).unwrap();
            return;
        }
    };
    if let Ok(Some(prev)) = replays.get::<serde_json::Value>(sk.storage_key()) {
        context.response.header(("Idempotent-Replayed", "true")).from_json(prev).unwrap();
        return;
    }
    let body: AwardBody = match context.request.bind_json() {
        Ok(b) => b,
        Err(e) => {
            context.response.status_code(422, "Unprocessable Entity").from_text(e.to_string()).unwrap();
            return;
        }
    };
    let trace_id = scru128::new_string();
    tracing::info!(%trace_id, member = %body.member_id, "awarding points");
    let balance = award_points(&ident.merchant_id, &body.member_id, body.points);
    let out = serde_json::json!({ "member_id": body.member_id, "balance": balance });
    let _ = replays.put(sk.storage_key(), &out);
    context.response.header(("X-Trace-Id", trace_id.clone())).status_code(201, "Created").from_json(out).unwrap();
}
