use std::collections::HashMap;
use std::rc::Rc;

use compio::io::{AsyncReadExt, AsyncWriteExt};
use compio::net::{TcpListener, TcpStream};
use idem_scope::{scoped, ScopedKey};
use larder::pantry::LocalPantry;

use crate::wire::{read_request, Request, Response};

const CLIENT_KEY: &str = "Idempotency-Key";
const PARTNER_DELIVERY: &str = "X-Acme-Delivery";

struct Gateway {
    outcomes: LocalPantry,
    partners: HashMap<String, String>,
}

impl Gateway {
    async fn settle_api(&self, req: &Request) -> Response {
        let (Some(tenant), Some(user_id)) = (req.header("x-tenant-id"), req.header("x-user-id")) else {
            return Response::status(401);
        };
        let Some(client_key) = req.header(CLIENT_KEY) else {
            return Response::status(400);
        };
        match scoped(tenant, user_id, "settle", client_key) {
            Ok(key) => self.run_once(&key, &req.body).await,
            Err(e) => Response::text(400, &e.to_string()),
        }
    }

    async fn settle_webhook(&self, req: &Request) -> Response {
        let Some(client_id) = req.header("x-acme-client-id") else {
            return Response::status(400);
        };
        let Some(tenant) = self.partners.get(client_id) else {
            return Response::status(403);
        };
        let Some(delivery_id) = req.header(PARTNER_DELIVERY) else {
            return Response::status(400);
        };
        match scoped(tenant, client_id, "settle", delivery_id) {
            Ok(key) => self.run_once(&key, &req.body).await,
            Err(e) => Response::text(400, &e.to_string()),
        }
    }

    async fn run_once(&self, key: &ScopedKey, body: &[u8]) -> Response {
        if let Some(prev) = self.outcomes.get(key.storage_key()) {
            return Response::bytes(200, prev);
        }
        let out = format!("{{\"settled_bytes\":{}}}", body.len()).into_bytes();
        self.outcomes.put(key.storage_key(), out.clone());
        Response::bytes(200, out)
    }
}

async fn handle(gw: Rc<Gateway>, mut stream: TcpStream) -> std::io::Result<()> {
    let req = read_request(&mut stream).await?;
    let resp = match req.path.as_str() {
        "/v1/settlements" => gw.settle_api(&req).await,
        "/hooks/acme/settlement" => gw.settle_webhook(&req).await,
        _ => Response::status(404),
    };
    stream.write_all(resp.encode()).await.0
}

#[compio::main]
async fn main() -> std::io::Result<()> {
    let gw = Rc::new(Gateway { outcomes: LocalPantry::open("/var/lib/settle")?, partners: HashMap::new() });
    let listener = TcpListener::bind("0.0.0.0:9090").await?;
    loop {
        let (stream, _) = listener.accept().await?;
        compio::runtime::spawn(handle(gw.clone(), stream)).detach();
    }
}
