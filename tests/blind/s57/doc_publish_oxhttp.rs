use std::io::Read;
use std::sync::Arc;

use oxhttp::model::{HeaderName, Request, Response, Status};

use crate::docs::{Publisher, Published};
use crate::identity::{token_claims, Claims};
use crate::replay::ReplayStore;

pub struct PublishHandler {
    replays: Arc<ReplayStore>,
    publisher: Arc<Publisher>,
    home_org: String,
}

impl PublishHandler {
    pub fn handle(&self, request: &mut Request) -> Response {
        let claims: Claims = match token_claims(request.header(&HeaderName::AUTHORIZATION)) {
            Ok(c) => c,
            Err(_) => return Response::builder(Status::UNAUTHORIZED).build(),
        };
        let org_id = claims.org.as_ref().map_or("public".to_owned(), |o| o.id.clone());
        let sandbox_org = claims.sandbox_org.clone().unwrap_or_else(|| self.home_org.clone());
        let client_key = match request.header(&HeaderName::new_unchecked("Idempotency-Key")).and_then(|v| v.to_str().ok()) {
            Some(k) => k.trim_matches('"').to_owned(),
            None => return Response::builder(Status::BAD_REQUEST).with_body("Idempotency-Key required"),
        };
        let key = match idem_scope::scoped(&org_id, &claims.sub, "docs.publish", &client_key) {
            Ok(k) => k,
            Err(e) => return Response::builder(Status::BAD_REQUEST).with_body(e.to_string()),
        };

        if let Some(prev) = self.replays.get(key.storage_key()) {
            return Response::builder(Status::OK).with_body(prev);
        }

        let mut body = String::new();
        if request.body_mut().read_to_string(&mut body).is_err() {
            return Response::builder(Status::BAD_REQUEST).build();
        }
        let published: Published = match self.publisher.publish(&org_id, &sandbox_org, &claims.sub, &body) {
            Ok(p) => p,
            Err(e) => return Response::builder(Status::INTERNAL_SERVER_ERROR).with_body(e.to_string()),
        };
        let text = published.to_json();
        self.replays.put(key.storage_key(), text.clone());
        Response::builder(Status::CREATED).with_body(text)
    }
}
