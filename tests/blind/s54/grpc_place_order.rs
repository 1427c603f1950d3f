use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use mini_moka::sync::Cache;
use volo_grpc::{Request, Response, Status};

use crate::gen::orders::{OrderAck, OrderService, PlaceOrderRequest};

type ReplayKey = (String, String, &'static str, u64);

pub struct Orders {
    replays: Cache<ReplayKey, Arc<OrderAck>>,
    books: Arc<orderbook::Book>,
}

impl Orders {
    pub fn new(books: Arc<orderbook::Book>) -> Self {
        Self {
            replays: Cache::builder().time_to_live(Duration::from_secs(600)).build(),
            books,
        }
    }
}

fn caller_of<T>(req: &Request<T>) -> Result<(String, String), Status> {
    let ext = req
        .extensions()
        .get::<gatehouse::grpc::Caller>()
        .ok_or_else(|| Status::unauthenticated("no caller"))?;
    Ok((ext.tenant_id.clone(), ext.caller_id.clone()))
}

impl OrderService for Orders {
    async fn place_order(&self, req: Request<PlaceOrderRequest>) -> Result<Response<OrderAck>, Status> {
        let (tenant_id, caller_id) = caller_of(&req)?;
        let order = req.into_inner();

        let mut hasher = DefaultHasher::new();
        order.hash(&mut hasher);
        let h = hasher.finish();
        let replay_key: ReplayKey = (tenant_id.clone(), caller_id.clone(), "PlaceOrder", h);

        if let Some(ack) = self.replays.get(&replay_key) {
            return Ok(Response::new((*ack).clone()));
        }
        let ack = self
            .books
            .place(&tenant_id, &caller_id, &order)
            .await
            .map_err(|e| Status::internal(e.to_string()))?;
        self.replays.insert(replay_key, Arc::new(ack.clone()));
        Ok(Response::new(ack))
    }
}
