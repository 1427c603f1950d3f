use std::path::Path;

use leveldb::database::Database;
use leveldb::kv::KV;
use leveldb::options::{Options, ReadOptions, WriteOptions};
use micro_http::{Body, Method, Request, Response, StatusCode, Version};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

type Db = Database<Vec<u8>>;

pub struct OrderService {
    replays: Db,
    orders: Db,
}

#[derive(Deserialize)]
struct NewOrder {
    sku: String,
    qty: u32,
}

#[derive(Serialize)]
struct Created {
    order_id: String,
    sku: String,
    qty: u32,
}

fn reply(status: StatusCode, body: &[u8]) -> Response {
    let mut rsp = Response::new(Version::Http11, status);
    rsp.set_body(Body::new(body.to_vec()));
    rsp
}

impl OrderService {
    pub fn open(dir: &Path) -> Result<Self, leveldb::error::Error> {
        let mut opts = Options::new();
        opts.create_if_missing = true;
        Ok(Self {
            replays: Database::open(&dir.join("replays"), opts.clone())?,
            orders: Database::open(&dir.join("orders"), opts)?,
        })
    }

    pub fn handle(&self, req: &Request) -> Response {
        match (req.method(), req.uri().get_abs_path()) {
            (Method::Post, "/orders") => self.create(req),
            (Method::Get, path) if path.starts_with("/orders/") => self.fetch(&path["/orders/".len()..]),
            _ => reply(StatusCode::NotFound, b"not found"),
        }
    }

    fn create(&self, req: &Request) -> Response {
        let entries = req.headers.custom_entries();
        let Some(key) = entries.get("Idempotency-Key") else {
            return reply(StatusCode::BadRequest, b"missing Idempotency-Key");
        };
        let Some(tenant_id) = entries.get("X-Tenant-Id") else {
            return reply(StatusCode::Unauthorized, b"missing tenant");
        };

        let replay_key = serde_json::to_vec(&(tenant_id, key)).expect("tuple of strings");
        if let Ok(Some(prev)) = self.replays.get(ReadOptions::new(), replay_key.clone()) {
            return reply(StatusCode::Ok, &prev);
        }

        let body = req.body.as_ref().map(|b| b.raw()).unwrap_or(&[]);
        let input: NewOrder = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(_) => return reply(StatusCode::BadRequest, b"invalid order"),
        };

        let order_id = Uuid::new_v4().to_string();
        let created = Created { order_id: order_id.clone(), sku: input.sku, qty: input.qty };
        let out = serde_json::to_vec(&created).unwrap_or_default();

        if self.orders.put(WriteOptions::new(), order_id.as_bytes().to_vec(), &out).is_err() {
            return reply(StatusCode::InternalServerError, b"storage");
        }
        let _ = self.replays.put(WriteOptions::new(), replay_key, &out);
        reply(StatusCode::Created, &out)
    }

    fn fetch(&self, id: &str) -> Response {
        match self.orders.get(ReadOptions::new(), id.as_bytes().to_vec()) {
            Ok(Some(doc)) => reply(StatusCode::Ok, &doc),
            Ok(None) => reply(StatusCode::NotFound, b"no such order"),
            Err(_) => reply(StatusCode::InternalServerError, b"storage"),
        }
    }
}
