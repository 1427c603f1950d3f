use std::collections::HashMap;
use std::sync::Arc;

use http::{HeaderMap, Request, Response, StatusCode};
use tokio::sync::RwLock;

use crate::hooks::{EndpointRegistry, RegisteredEndpoint};

type ReplayKey = (String, String, String, String);

pub trait Route: Send + Sync {
    fn call(&self, tenant_id: &str, client_id: &str, req: Request<Vec<u8>>) -> futures::future::BoxFuture<'_, Response<Vec<u8>>>;
}

pub struct RegisterEndpoint {
    registry: Arc<EndpointRegistry>,
    replays: Arc<RwLock<HashMap<ReplayKey, RegisteredEndpoint>>>,
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn reply(status: StatusCode, body: Vec<u8>) -> Response<Vec<u8>> {
    Response::builder().status(status).body(body).expect("static response parts")
}

impl Route for RegisterEndpoint {
    fn call(&self, tenant_id: &str, client_id: &str, req: Request<Vec<u8>>) -> futures::future::BoxFuture<'_, Response<Vec<u8>>> {
        let tenant_id = tenant_id.to_owned();
        let client_id = client_id.to_owned();
        Box::pin(async move {
            let Some(raw) = header_str(req.headers(), "idempotency-key") else {
                return reply(StatusCode::BAD_REQUEST, b"Idempotency-Key required".to_vec());
            };
            let client_key: String = raw.chars().filter(|c| *c != '\u{1e}').collect();
            let slot: ReplayKey = (tenant_id.clone(), client_id.clone(), "endpoints.register".to_owned(), client_key);

            if let Some(done) = self.replays.read().await.get(&slot) {
                return reply(StatusCode::OK, serde_json::to_vec(done).unwrap_or_default());
            }

            let url = String::from_utf8_lossy(req.body()).trim().to_owned();
            if !url.chars().all(|c| c.is_ascii_graphic()) {
                return reply(StatusCode::UNPROCESSABLE_ENTITY, b"invalid endpoint url".to_vec());
            }
            let endpoint = match self.registry.register(&tenant_id, &url).await {
                Ok(e) => e,
                Err(e) => return reply(StatusCode::BAD_GATEWAY, e.to_string().into_bytes()),
            };
            self.replays.write().await.insert(slot, endpoint.clone());
            reply(StatusCode::CREATED, serde_json::to_vec(&endpoint).unwrap_or_default())
        })
    }
}
