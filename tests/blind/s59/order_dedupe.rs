use std::io::Read;
use std::sync::Arc;

use idem_scope::{scoped, Problem};
use keccak_hash::keccak;
use rustful::header::ContentType;
use rustful::{Context, Handler, Response, StatusCode};
use sluice::kv::SyncBucket;

use crate::auth::{ApiKeyCache, Caller};
use crate::orders::{create_order, OrderForm};

const REPLAY_SHARDS: u64 = 16;

pub struct CreateOrder {
    pub replays: Arc<Vec<SyncBucket>>,
    pub api_keys: Arc<ApiKeyCache>,
}

impl CreateOrder {
    fn caller(&self, context: &Context) -> Option<Caller> {
        let token = context.headers.get_raw("Authorization")?.first()?;
        self.api_keys.get(&keccak(token))
    }
}

impl Handler for CreateOrder {
    fn handle_request(&self, mut context: Context, mut response: Response) {
        let Some(caller) = self.caller(&context) else {
            response.set_status(StatusCode::Unauthorized);
            return;
        };
        let body: Vec<u8> = match context.body.bytes().collect::<Result<_, _>>() {
            Ok(b) => b,
            Err(_) => {
                response.set_status(StatusCode::BadRequest);
                return;
            }
        };
        // identical order bodies from one caller are the same order
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "orders.create", &format!("{:x}", keccak(&body))) {
            Ok(sk) => sk,
            Err(e) => {
                response.set_status(StatusCode::BadRequest);
                response.send(Problem::invalid_key(&e.to_string()).to_json());
                return;
            }
        };
        let shard = keccak(sk.storage_key().as_bytes()).to_low_u64_be() % REPLAY_SHARDS;
        let replays = &self.replays[shard as usize];

        if let Ok(Some(prev)) = replays.get::<Vec<u8>>(sk.storage_key()) {
            response.headers_mut().set(ContentType::json());
            response.send(prev);
            return;
        }
        let form: OrderForm = match serde_json::from_slice(&body) {
            Ok(f) => f,
            Err(e) => {
                response.set_status(StatusCode::UnprocessableEntity);
                response.send(e.to_string());
                return;
            }
        };
        let order = create_order(&caller, &form);
        let out = serde_json::to_vec(&order).unwrap_or_default();
        let _ = replays.put(sk.storage_key(), &out);
        response.set_status(StatusCode::Created);
        response.send(out);
    }
}
