use std::sync::Arc;

use dashmap::DashMap;
use touche::{Body, Request, Response, Server, StatusCode};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OrgId(pub String);

pub struct Token {
    pub org: Option<OrgId>,
    pub user_id: String,
    pub retries: Option<u32>,
}

#[derive(Clone)]
struct Refills {
    done: Arc<DashMap<(String, String, &'static str, String), Vec<u8>>>,
    pharmacy: crate::pharmacy::Client,
}

fn respond(status: StatusCode, body: Vec<u8>) -> Response<Body> {
    Response::builder().status(status).body(Body::from(body)).expect("valid response")
}

impl Refills {
    fn refill(&self, req: Request<Body>) -> Response<Body> {
        let Some(token) = crate::tokens::from_request(&req) else {
            return respond(StatusCode::UNAUTHORIZED, Vec::new());
        };
        let Some(key) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
            return respond(StatusCode::BAD_REQUEST, b"missing Idempotency-Key".to_vec());
        };
        let org: OrgId = match token.org.clone() {
            Some(org) => org,
            None => Default::default(),
        };
        let attempts = token.retries.unwrap_or_default();
        let org_id: &str = &org.0;
        let slot = (org_id.to_owned(), token.user_id.clone(), "prescriptions.refill", key);
        if let Some(hit) = self.done.get(&slot) {
            return respond(StatusCode::OK, hit.clone());
        }
        let body = req.into_body().into_bytes().unwrap_or_default();
        let outcome = self.pharmacy.refill(org_id, &body, attempts);
        let out = serde_json::to_vec(&outcome).unwrap_or_default();
        self.done.insert(slot, out.clone());
        respond(StatusCode::CREATED, out)
    }
}

fn main() -> std::io::Result<()> {
    let refills = Refills { done: Arc::new(DashMap::new()), pharmacy: crate::pharmacy::Client::from_env() };
    Server::bind("0.0.0.0:7070").serve(move |req: Request<Body>| {
        Ok::<_, std::convert::Infallible>(refills.refill(req))
    })
}
