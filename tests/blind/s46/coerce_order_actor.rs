use async_trait::async_trait;
use coerce::actor::context::ActorContext;
use coerce::actor::message::{Handler, Message};
use coerce::actor::Actor;
use std::collections::BTreeMap;

pub struct PlaceOrder {
    pub org_id: String,
    pub actor: String,
    pub submission_id: String,
    pub lines: Vec<(String, u32)>,
}

/// `submission_id` is the client's idempotency key, forwarded verbatim from the Idempotency-Key header.
impl Message for PlaceOrder {
    type Result = Result<u64, String>;
}

#[derive(Default)]
pub struct OrderBook {
    seen: BTreeMap<(String, String, String, String), u64>,
    next_id: u64,
}

impl Actor for OrderBook {}

#[async_trait]
impl Handler<PlaceOrder> for OrderBook {
    async fn handle(&mut self, msg: PlaceOrder, _ctx: &mut ActorContext) -> Result<u64, String> {
        let k = (msg.org_id.clone(), msg.actor.clone(), "place_order".to_string(), msg.submission_id.clone());
        if let Some(id) = self.seen.get(&k) {
            return Ok(*id);
        }
        self.next_id += 1;
        self.seen.insert(k, self.next_id);
        Ok(self.next_id)
    }
}
