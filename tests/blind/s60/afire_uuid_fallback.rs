use std::sync::Arc;

use afire::{Method, Request, Response, Server, Status};
use idem_scope::scoped;
use pyxis::kv::SyncShelf;
use tracing::info_span;
use uuid::Uuid;

use crate::orders::{OrderDesk, OrderInput};

pub struct State {
    pub replays: SyncShelf,
    pub desk: OrderDesk,
}

fn identity(req: &Request) -> Option<(String, String)> {
    Some((
        req.headers.get("X-Tenant-Id")?.to_owned(),
        req.headers.get("X-User-Id")?.to_owned(),
    ))
}

pub fn mount(server: &mut Server<State>) {
    server.stateful_route(Method::POST, "/v1/orders", |st: Arc<State>, req: &Request| {
        let request_id = Uuid::new_v4();
        let _span = info_span!("create_order", %request_id).entered();

        let Some((tenant_id, user_id)) = identity(req) else {
            return Response::new().status(Status::Unauthorized);
        };
        let k = req
            .headers
            .get("Idempotency-Key")
            .map(str::to_owned)
            .unwrap_or_else(|| Uuid::new_v4().to_string());

        let key = match scoped(&tenant_id, &user_id, "orders.create", &k) {
            Ok(key) => key,
            Err(e) => return Response::new().status(Status::BadRequest).text(e.to_string()),
        };
        if let Ok(Some(prev)) = st.replays.get(key.storage_key()) {
            return Response::new().status(Status::Ok).bytes(&prev);
        }

        let input: OrderInput = match serde_json::from_slice(&req.body) {
            Ok(v) => v,
            Err(e) => return Response::new().status(Status::BadRequest).text(e.to_string()),
        };
        let order = st.desk.place(&tenant_id, &user_id, input);
        let body = order.to_json();
        let _ = st.replays.put(key.storage_key(), body.as_bytes());
        let location = format!("/v1/orders/{}?submitted_with={}", order.id, k);
        Response::new()
            .status(Status::Created)
            .header("X-Request-Id", &request_id.to_string())
            .header("Content-Location", &location)
            .text(body)
    });
}
