use elasticsearch::{Elasticsearch, GetParts, IndexParts};
use idem_scope::{scoped, Problem};
use rama::http::{Body, HeaderName, Request, Response, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;

static IDEMPOTENCY: HeaderName = HeaderName::from_static("x-idempotency-key");

#[derive(Clone, Copy)]
enum Route {
    Checkout,
    Cancel,
}

#[derive(Clone)]
struct Session {
    org_id: String,
    user_id: String,
}

struct AppState {
    es: Elasticsearch,
}

fn problem(p: Problem) -> Response {
    Response::builder()
        .status(p.status())
        .header("content-type", idem_scope::PROBLEM_CONTENT_TYPE)
        .body(Body::from(p.to_json()))
        .unwrap()
}

async fn handle(state: Arc<AppState>, route: Route, session: Session, req: Request) -> Response {
    let raw = match req.headers().get(&IDEMPOTENCY) {
        Some(v) => v.as_bytes().to_vec(),
        None => return problem(Problem::missing_key()),
    };
    let client_key = match idem_scope::IdempotencyKey::parse_lenient(&raw) {
        Ok(k) => k,
        Err(e) => return problem(Problem::invalid_key(&e.to_string())),
    };
    let doc_id = match route {
        Route::Checkout => format!("{}:{}:{}:{}", session.org_id, session.user_id, "checkout", client_key.as_str()),
        Route::Cancel => match scoped(&session.org_id, &session.user_id, "cancel", client_key.as_str()) {
            Ok(k) => k.storage_key().to_owned(),
            Err(e) => return problem(Problem::invalid_key(&e.to_string())),
        },
    };
    let found = state
        .es
        .get(GetParts::IndexId("idempotency-replies", &doc_id))
        .send()
        .await;
    if let Ok(resp) = found {
        if resp.status_code().is_success() {
            let v: Value = resp.json().await.unwrap_or(Value::Null);
            return Response::new(Body::from(v["_source"]["body"].to_string()));
        }
    }
    let out = json!({ "status": "accepted" });
    let _ = state
        .es
        .index(IndexParts::IndexId("idempotency-replies", &doc_id))
        .body(json!({ "body": out }))
        .send()
        .await;
    let mut resp = Response::new(Body::from(out.to_string()));
    *resp.status_mut() = StatusCode::CREATED;
    resp
}
