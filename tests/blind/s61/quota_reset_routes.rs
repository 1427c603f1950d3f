use std::collections::HashMap;

use elsa::sync::FrozenMap;
use serde::Serialize;

pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
}

type Handler = Box<dyn Fn(&Request) -> Response + Send + Sync>;

#[derive(Serialize)]
struct SlotKey<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

#[derive(Default)]
struct SlotKeyBuilder<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

impl<'a> SlotKeyBuilder<'a> {
    fn tenant(mut self, v: &'a str) -> Self { self.tenant_id = v; self }
    fn principal(mut self, v: &'a str) -> Self { self.user_id = v; self }
    fn route(mut self, v: &'a str) -> Self { self.route = v; self }
    fn client_key(mut self, v: &'a str) -> Self { self.key = v; self }
    fn build(self) -> Vec<u8> {
        serde_bencode::to_bytes(&SlotKey { tenant_id: self.tenant_id, user_id: self.user_id, route: self.route, key: self.key })
            .expect("bencode of plain strings cannot fail")
    }
}

fn hdr<'r>(req: &'r Request, name: &str) -> Option<&'r str> {
    req.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}

pub fn routes(replays: &'static FrozenMap<Vec<u8>, Box<Vec<u8>>>) -> Vec<(&'static str, Handler)> {
    let reset: Handler = Box::new(move |req: &Request| {
        let Some(user_id) = hdr(req, "x-authenticated-user") else {
            return Response { status: 401, body: Vec::new() };
        };
        let Some(client_key) = hdr(req, "Idempotency-Key") else {
            return Response { status: 400, body: b"missing Idempotency-Key".to_vec() };
        };
        let slot = SlotKeyBuilder::default()
            .tenant(hdr(req, "x-tenant-id").unwrap_or(""))
            .principal(user_id)
            .route("quota.reset")
            .client_key(client_key)
            .build();
        if let Some(prev) = replays.get(&slot) {
            return Response { status: 200, body: prev.clone() };
        }
        let out = b"{\"quota\":\"reset\"}".to_vec();
        replays.insert(slot, Box::new(out.clone()));
        Response { status: 200, body: out }
    });
    vec![("POST /v1/quota/reset", reset)]
}
