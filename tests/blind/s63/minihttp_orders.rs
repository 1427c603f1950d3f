use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

use futures::future::{self, FutureResult};
use tokio_minihttp::{Http, Request, Response};
use tokio_proto::TcpServer;
use tokio_service::Service;

use crate::tokens::{Account, TokenTable};

#[derive(Clone)]
struct Orders {
    replies: Arc<Mutex<HashMap<String, String>>>,
    tokens: Arc<TokenTable>,
}

fn reply(status: u32, reason: &str, body: &str) -> Response {
    let mut resp = Response::new();
    resp.status_code(status, reason);
    resp.header("Content-Type", "application/json");
    resp.body(body);
    resp
}

impl Service for Orders {
    type Request = Request;
    type Response = Response;
    type Error = io::Error;
    type Future = FutureResult<Response, io::Error>;

    fn call(&self, req: Request) -> Self::Future {
        if req.method() != "POST" || req.path() != "/orders" {
            return future::ok(reply(404, "Not Found", "{}"));
        }
        let mut client_key: Option<String> = None;
        let mut bearer: Option<String> = None;
        for (name, value) in req.headers() {
            if name.eq_ignore_ascii_case("Idempotency-Key") {
                client_key = Some(String::from_utf8_lossy(value).trim().to_owned());
            } else if name.eq_ignore_ascii_case("Authorization") {
                bearer = String::from_utf8(value.to_vec()).ok();
            }
        }
        let Some(client_key) = client_key else {
            return future::ok(reply(400, "Bad Request", r#"{"title":"Idempotency-Key required"}"#));
        };
        let account: Account = match bearer.as_deref().and_then(|b| self.tokens.resolve(b)) {
            Some(a) => a,
            None => return future::ok(reply(401, "Unauthorized", "{}")),
        };

        let route = "create_order";
        let mut slot = String::from("orders/");
        slot.push_str(&account.account_id);
        slot.push('/');
        slot.push_str(&account.user_id);
        slot.push('/');
        slot.push_str(route);
        slot.push('/');
        slot.push_str(&client_key);

        let mut replies = self.replies.lock().expect("reply table poisoned");
        if let Some(previous) = replies.get(&slot) {
            return future::ok(reply(200, "OK", previous));
        }
        let order_json = crate::orders::place(&account, req.body());
        replies.insert(slot, order_json.clone());
        drop(replies);

        let mut note = String::from("accepted order for key ");
        note.push_str(&client_key);
        let mut resp = reply(201, "Created", &order_json);
        resp.header("X-Note", &note);
        future::ok(resp)
    }
}

pub fn serve(addr: std::net::SocketAddr, tokens: Arc<TokenTable>) {
    let orders = Orders { replies: Arc::new(Mutex::new(HashMap::new())), tokens };
    TcpServer::new(Http, addr).serve(move || Ok(orders.clone()));
}
