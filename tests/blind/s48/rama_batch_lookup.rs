use foundationdb::{Database, FdbResult, Transaction};
use futures::future::try_join_all;
use rama::http::{Body, Request, Response, StatusCode};
use serde::Serialize;
use std::sync::Arc;

#[derive(Serialize)]
struct Status {
    key: String,
    known: bool,
}

async fn probe(trx: &Transaction, k: &str) -> FdbResult<Status> {
    let known = trx.get(k.as_bytes(), true).await?.is_some();
    Ok(Status { key: k.to_owned(), known })
}

pub async fn status(db: Arc<Database>, req: Request) -> Response {
    let trx = match db.create_trx() {
        Ok(t) => t,
        Err(_) => return Response::builder().status(StatusCode::SERVICE_UNAVAILABLE).body(Body::empty()).unwrap(),
    };
    let keys: Vec<String> = req
        .headers()
        .get_all("idempotency-key")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|s| s.split(','))
        .map(|s| s.trim().to_owned())
        .collect();
    let lookups = keys.iter().map(|k| probe(&trx, k));
    match try_join_all(lookups).await {
        Ok(all) => Response::new(Body::from(serde_json::to_string(&all).unwrap_or_default())),
        Err(_) => Response::builder().status(StatusCode::BAD_GATEWAY).body(Body::empty()).unwrap(),
    }
}
