use std::sync::{Arc, Mutex};

use humphrey::http::{Request, Response, StatusCode};
use idem_scope::scoped;
use serde::Deserialize;
use simple_redis::client::Client as RedisClient;

pub struct ExpenseState {
    redis: Mutex<RedisClient>,
    max_amount_minor: i64,
}

#[derive(Deserialize)]
struct ExpenseInput {
    amount_minor: i64,
    category: String,
    receipt_url: Option<String>,
}

fn header(request: &Request, name: &str) -> Option<String> {
    request.headers.get(name).map(|v| v.to_string())
}

pub fn submit_expense(request: Request, state: Arc<ExpenseState>) -> Response {
    let (Some(org_id), Some(user_id), Some(key)) = (
        header(&request, "X-Org-Id"),
        header(&request, "X-User-Id"),
        header(&request, "Idempotency-Key"),
    ) else {
        return Response::new(StatusCode::BadRequest, "missing identity or Idempotency-Key");
    };
    let sk = match scoped(&org_id, &user_id, "expenses.submit", &key) {
        Ok(k) => k,
        Err(e) => return Response::new(StatusCode::BadRequest, e.to_string()),
    };
    let Ok(mut redis) = state.redis.lock() else {
        return Response::new(StatusCode::ServiceUnavailable, "busy");
    };

    let claimed: String = match redis.run_command_with_string_response("SET", vec![sk.storage_key(), "in_progress", "NX", "PX", "60000"]) {
        Ok(v) => v,
        Err(_) => return Response::new(StatusCode::Conflict, "request in progress"),
    };
    if claimed != "OK" {
        return Response::new(StatusCode::Conflict, "request in progress");
    }

    let body = request.content.clone().unwrap_or_default();
    let input: ExpenseInput = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(_) => {
            let _ = redis.del(sk.storage_key());
            return Response::new(StatusCode::UnprocessableEntity, "invalid expense");
        }
    };
    if input.amount_minor > state.max_amount_minor {
        return Response::new(StatusCode::UnprocessableEntity, "over the approval limit");
    }

    let out = format!(r#"{{"status":"submitted","category":"{}","receipt":{}}}"#, input.category, input.receipt_url.is_some());
    let _ = redis.set(sk.storage_key(), out.as_str());
    Response::new(StatusCode::Created, out)
}
