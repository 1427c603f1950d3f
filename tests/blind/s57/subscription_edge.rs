use wstd::http::body::IncomingBody;
use wstd::http::server::{Finished, Responder};
use wstd::http::{Request, Response, StatusCode};
use wstd::io::AsyncRead;

use crate::billing::{SubscriptionClient, SubscriptionOutcome};
use crate::edge_kv::EdgeKv;
use crate::tokens::{verify_bearer, Grant};

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

enum Flow {
    Subscribe,
    Cancel,
}

fn flow_of(path: &str) -> Option<Flow> {
    match path {
        "/v1/subscriptions" => Some(Flow::Subscribe),
        "/v1/subscriptions/cancel" => Some(Flow::Cancel),
        _ => None,
    }
}

fn status(code: StatusCode) -> Response<String> {
    Response::builder().status(code).body(String::new()).unwrap()
}

#[wstd::http_server]
async fn main(mut request: Request<IncomingBody>, responder: Responder) -> Finished {
    let region = request
        .headers()
        .get("x-edge-region")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("eu-west-1");
    let kv = EdgeKv::open(&format!("replays-{region}"));

    let grant: Grant = match verify_bearer(request.headers()) {
        Ok(g) => g,
        Err(_) => return responder.respond(status(StatusCode::UNAUTHORIZED)).await,
    };
    let idem = match request.headers().get(IDEMPOTENCY_HEADER).and_then(|v| v.to_str().ok()) {
        Some(v) => v.to_owned(),
        None => return responder.respond(status(StatusCode::BAD_REQUEST)).await,
    };
    let route = request.uri().path().to_owned();
    let Some(flow) = flow_of(&route) else {
        return responder.respond(status(StatusCode::NOT_FOUND)).await;
    };

    let record = match flow {
        Flow::Subscribe => grant.org_id.clone() + "|" + &grant.subject + "|" + &route + "|" + idem.as_str(),
        Flow::Cancel => match idem_scope::scoped(&grant.org_id, &grant.subject, "subscriptions.cancel", &idem) {
            Ok(k) => k.storage_key().to_owned(),
            Err(e) => {
                let body = idem_scope::Problem::invalid_key(&e.to_string()).to_json();
                return responder.respond(Response::builder().status(400).body(body).unwrap()).await;
            }
        },
    };

    if let Some(hit) = kv.get(&record) {
        return responder.respond(Response::builder().status(200).header("idempotent-replayed", "true").body(hit).unwrap()).await;
    }

    let mut raw = Vec::new();
    if request.body_mut().read_to_end(&mut raw).await.is_err() {
        return responder.respond(status(StatusCode::BAD_REQUEST)).await;
    }
    let client = SubscriptionClient::from_env();
    let outcome: SubscriptionOutcome = match client.call(&grant.org_id, &route, &raw).await {
        Ok(o) => o,
        Err(_) => return responder.respond(status(StatusCode::BAD_GATEWAY)).await,
    };
    let text = outcome.to_json();
    kv.set(&record, &text);
    responder.respond(Response::builder().status(outcome.status).body(text).unwrap()).await
}
